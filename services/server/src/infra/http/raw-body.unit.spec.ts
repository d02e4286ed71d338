import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './raw-body.js';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('how deep a JSON body nests, counted on its text', () => {
  it.each([
    ['{}', 1],
    ['[]', 1],
    ['{"a":[1,{"b":2}]}', 3],
    [nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH],
    [`{"a":${nested(10, '{"b":', '}').replace(/\{"b":\}/, '{"b":1}')}}`, 11],
  ])('%s nests %i deep', (text, depth) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(nestsDeeperThan(text, depth)).toBe(false);
    expect(nestsDeeperThan(text, depth - 1)).toBe(true);
  });

  it('counts no bracket inside a string, escaped quotes and backslashes included', () => {
    const text = JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\" \\\\', c: '\\\\[[[[' });
    expect(nestsDeeperThan(text, 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['"[[', ['\\', ['x']]]), 2)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify(['"[[', ['\\', ['x']]]), 3)).toBe(false);
  });

  it('goes through a body of 100,000 levels without recursion', () => {
    expect(nestsDeeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(100_000, '{"a":', '}'), MAX_JSON_DEPTH)).toBe(true);
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(nestsDeeperThan('', MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(']]]]}}}}', MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan('"unterminated [[[[', 1)).toBe(false);
  });
});
