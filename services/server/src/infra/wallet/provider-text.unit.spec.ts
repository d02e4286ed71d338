import { describe, expect, it } from 'vitest';
import { cleanOptionalText, cleanText, hasUnsafeCharacters } from './provider-text.js';

describe('provider text, cleaned before anything keeps or shows it', () => {
  it('drops NUL and the other C0/C1 controls and DEL, and turns line breaks into a space', () => {
    expect(cleanText('Match\u0000 day\u0007\u007F\u0085\u009F', 100)).toBe('Match day');
    expect(cleanText('North\nStand\r\nBlock\t12', 100)).toBe('North Stand Block 12');
    expect(cleanText('a\u2028b\u2029c', 100)).toBe('a b c');
  });

  it('drops bidirectional overrides, embeddings, isolates and marks, and the byte-order mark', () => {
    expect(cleanText('\u202Ekraptseuq', 100)).toBe('kraptseuq');
    const every = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C\uFEFF';
    expect(cleanText(`Quay${every}side`, 100)).toBe('Quayside');
    // Right-to-left script itself is text, and stays.
    expect(cleanText('ملعب الميناء', 100)).toBe('ملعب الميناء');
  });

  it('replaces lone surrogates with U+FFFD and keeps pairs (emoji) whole', () => {
    expect(cleanText('a\uD800b', 100)).toBe('a\uFFFDb');
    expect(cleanText('a\uDC00b\uD83D', 100)).toBe('a\uFFFDb\uFFFD');
    expect(cleanText('Goal \u{1F3DF}\uFE0F', 100)).toBe('Goal \u{1F3DF}\uFE0F');
    // The result is well-formed: PostgreSQL's jsonb takes it.
    expect(() => encodeURIComponent(cleanText('\uDFFF\uD800', 100))).not.toThrow();
  });

  it('puts text in NFC, collapses spaces and trims', () => {
    expect(cleanText('Cafe\u0301   Rovers  ', 100)).toBe('Caf\u00E9 Rovers');
  });

  it('cuts to the bound without splitting a surrogate pair, whatever the size of the input', () => {
    expect(cleanText('x'.repeat(5_000_000), 200)).toHaveLength(200);
    const cut = cleanText(`${'a'.repeat(9)}\u{1F3DF}`, 10);
    expect(cut).toBe('a'.repeat(9));
    expect(cleanText(`${'\u202E'.repeat(10)}abc`, 5)).toBe('abc');
  });

  it('answers null for an optional field with nothing left', () => {
    expect(cleanOptionalText('\u0000\u202E  ', 10)).toBeNull();
    expect(cleanOptionalText(null, 10)).toBeNull();
    expect(cleanOptionalText(undefined, 10)).toBeNull();
    expect(cleanOptionalText(' Row K ', 10)).toBe('Row K');
  });

  it('tells whether text holds anything it would change', () => {
    expect(hasUnsafeCharacters('ps_4f0c-ok:1')).toBe(false);
    for (const bad of ['a\u0000', 'a\u202E', 'a\uD800', 'a\nb', 'a\u200F']) expect(hasUnsafeCharacters(bad)).toBe(true);
  });

  it('leaves plain text as it is, as the whole cleaning would', () => {
    const samples = [
      '',
      'Match 12',
      'North Stand, Block A-12',
      'x'.repeat(200),
      ' lead',
      'trail ',
      'two  spaces',
      '~!@#$%',
    ];
    for (const sample of samples) {
      for (const max of [5, 200, 1000]) {
        const slow = cleanText(`${sample}\u200E`, max);
        expect(cleanText(sample, max)).toBe(slow);
      }
    }
  });
});
