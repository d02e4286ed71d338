import type { DiscoveryService } from '@nestjs/core';

/**
 * A mark that tells one kind of provider from the rest (a job, a subscription, a natively served route): the class
 * decorator (or `markObject` for a plain object) puts it on, and `found` lists the application's marked provider
 * instances, each once (a module imported in several places provides the same instance more than once).
 */
export function providerMark<T extends object>(name: string) {
  const brand = Symbol.for(name);
  const mark = (target: object) => Object.defineProperty(target, brand, { value: true, enumerable: false });
  const is = (value: unknown): value is T =>
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  return {
    markClass: (): ClassDecorator => (target) => {
      mark(target.prototype as object);
    },
    markObject: <S extends T>(value: S): S => {
      mark(value);
      return value;
    },
    found: (discovery: DiscoveryService): T[] => {
      const all = discovery
        .getProviders()
        .map((wrapper) => wrapper.instance as unknown)
        .filter(is);
      return all.filter((value, i) => all.indexOf(value) === i);
    },
  };
}
