import { describe, expect, it } from 'vitest';
import { windowWithoutSessionStorage } from './router-window';

/** A stand-in for the browser's window: its methods work only when called on it (as the browser's own do). */
class FakeWindow {
  #listeners = new Map<string, Set<() => void>>();
  readonly location = { pathname: '/dashboard' };
  readonly sessionStorage = {
    getItem: () => {
      throw new Error('the real session storage was read');
    },
  };
  addEventListener(type: string, listener: () => void) {
    if (!(this instanceof FakeWindow) || !this.#listeners) throw new TypeError('Illegal invocation');
    this.#listeners.set(type, (this.#listeners.get(type) ?? new Set()).add(listener));
  }
  removeEventListener(type: string, listener: () => void) {
    this.#listeners.get(type)?.delete(listener);
  }
  dispatch(type: string) {
    for (const listener of this.#listeners.get(type) ?? []) listener();
  }
}

describe('the window the router reads (router-window.ts)', () => {
  it('keeps nothing in its session storage and never reads the real one', () => {
    const real = new FakeWindow();
    const seen = windowWithoutSessionStorage(real as unknown as Window);
    expect(seen.sessionStorage.getItem('react-router-applied-view-transitions')).toBeNull();
    seen.sessionStorage.setItem('react-router-applied-view-transitions', '{"/a":["/b"]}');
    expect(seen.sessionStorage.getItem('react-router-applied-view-transitions')).toBeNull();
  });

  it('is the real window for everything else, its methods called on it', () => {
    const real = new FakeWindow();
    const seen = windowWithoutSessionStorage(real as unknown as Window);
    expect(seen.location).toBe(real.location);
    let popped = 0;
    const onPop = () => popped++;
    seen.addEventListener('popstate', onPop);
    real.dispatch('popstate');
    seen.removeEventListener('popstate', onPop);
    real.dispatch('popstate');
    expect(popped).toBe(1);
  });
});
