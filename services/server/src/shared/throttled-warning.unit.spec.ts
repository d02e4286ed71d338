import { describe, expect, it } from 'vitest';
import { throttledWarning } from './throttled-warning.js';

describe('throttledWarning', () => {
  it('reports the first warning of a key, holds back the rest of its window, and counts them in the next report', () => {
    let clock = 0;
    const lines: string[] = [];
    const warn = throttledWarning(
      (m) => lines.push(m),
      1000,
      () => clock,
    );
    warn('redis', 'down');
    warn('redis', 'down');
    warn('queue', 'queue down');
    clock = 999;
    warn('redis', 'down');
    expect(lines).toEqual(['down', 'queue down']);
    clock = 1000;
    warn('redis', 'still down');
    expect(lines).toEqual(['down', 'queue down', 'still down (and 2 more like it since the last report)']);
    clock = 5000;
    warn('redis', 'down again');
    expect(lines.at(-1)).toBe('down again');
  });
});
