import { describe, expect, it } from 'vitest';
import { plainText, shownTicket } from './link-states';

describe('the recipient page shows provider text as it reads', () => {
  it('drops control and bidirectional formatting characters and lone surrogates', () => {
    expect(plainText('\u202EKestrel Park')).toBe('Kestrel Park');
    expect(plainText('Cup\u0000 Final\u2066\u2069\u200F\u061C\uFEFF')).toBe('Cup Final');
    expect(plainText('a\uD800b')).toBe('ab');
    expect(plainText('Goal \u{1F3DF}')).toBe('Goal \u{1F3DF}');
    expect(plainText('ملعب الميناء')).toBe('ملعب الميناء');
    expect(plainText(null)).toBeNull();
  });

  it('makes every shown field of a link’s ticket plain', () => {
    expect(
      shownTicket({
        title: 'Kestrel\u0007 County',
        subtitle: '\u202ERound 3',
        logo: 'https://cdn.example/l.svg',
        venue_name: '\u202EKestrel Park\u202C',
        seat_info: 'Section \u2067A',
        next_game: null,
        next_game_date: '2026-12-05T15:00:00.000Z',
      }),
    ).toEqual({
      title: 'Kestrel County',
      subtitle: 'Round 3',
      logo: 'https://cdn.example/l.svg',
      venue_name: 'Kestrel Park',
      seat_info: 'Section A',
      next_game: null,
      next_game_date: '2026-12-05T15:00:00.000Z',
    });
  });
});
