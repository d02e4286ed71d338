import { describe, expect, it } from 'vitest';
import { matchRecipients, parseRecipientLines, RECIPIENT_MESSAGES, recipientLine } from './recipients.js';

describe('parseRecipientLines: one pasted line per ticket', () => {
  it('reads "Name <email>", "Name, email", a spreadsheet\'s tab, an e-mail alone and a name alone', () => {
    const pasted = [
      'Sam Jones <Sam@Example.com>',
      'Alex, alex@example.com',
      'Jo Bloggs\tjo@example.com',
      'pat@example.com',
      'Lee',
      '"Kim, K" <kim@example.com>',
    ].join('\n');
    expect(parseRecipientLines(pasted)).toEqual([
      { line: 1, ok: true, recipient: { name: 'Sam Jones', email: 'sam@example.com' } },
      { line: 2, ok: true, recipient: { name: 'Alex', email: 'alex@example.com' } },
      { line: 3, ok: true, recipient: { name: 'Jo Bloggs', email: 'jo@example.com' } },
      { line: 4, ok: true, recipient: { name: null, email: 'pat@example.com' } },
      { line: 5, ok: true, recipient: { name: 'Lee', email: null } },
      { line: 6, ok: true, recipient: { name: 'Kim, K', email: 'kim@example.com' } },
    ]);
  });

  it('skips blank lines, takes Windows line ends, and numbers lines as pasted', () => {
    expect(parseRecipientLines('\r\nSam\r\n\r\n  \r\nAlex <alex@example.com>\r\n')).toEqual([
      { line: 2, ok: true, recipient: { name: 'Sam', email: null } },
      { line: 5, ok: true, recipient: { name: 'Alex', email: 'alex@example.com' } },
    ]);
  });

  it('names the line of a bad e-mail, and of a name too long or with characters not allowed', () => {
    const read = parseRecipientLines(`Sam <sam@>\nAlex, alex@@x\n${'x'.repeat(81)}\nJo\u202E`);
    expect(read.map((r) => (r.ok ? null : r.error))).toEqual([
      RECIPIENT_MESSAGES.badLine(1, RECIPIENT_MESSAGES.badEmail),
      RECIPIENT_MESSAGES.badLine(2, RECIPIENT_MESSAGES.badEmail),
      RECIPIENT_MESSAGES.badLine(3, RECIPIENT_MESSAGES.nameTooLong),
      RECIPIENT_MESSAGES.badLine(4, RECIPIENT_MESSAGES.nameNotAllowed),
    ]);
  });
});

describe('matchRecipients: the pasted lines against the selected tickets, in order', () => {
  it('pairs them in order; fewer lines leave the last tickets without one, and says so', () => {
    const m = matchRecipients(parseRecipientLines('Sam\nAlex'), 3);
    expect(m.recipients).toEqual([{ name: 'Sam', email: null }, { name: 'Alex', email: null }, null]);
    expect(m.errors).toEqual([]);
    expect(m.warning).toBe('2 recipients for 3 tickets: the last ticket gets none');
    expect(matchRecipients(parseRecipientLines('Sam'), 3).warning).toBe(
      '1 recipient for 3 tickets: the last 2 tickets get none',
    );
  });

  it('refuses more lines than tickets, and bad lines', () => {
    const m = matchRecipients(parseRecipientLines('Sam\nAlex <bad>\nJo'), 2);
    expect(m.errors).toEqual(['Line 2: not a valid email address', '3 recipients for 2 tickets: remove 1 line']);
  });

  it('editing links, says the links no line reaches keep their recipients, and counts links', () => {
    expect(matchRecipients(parseRecipientLines('Sam\nAlex'), 3, true).warning).toBe(
      '2 recipients for 3 links: the last keeps its recipient',
    );
    expect(matchRecipients(parseRecipientLines('Sam'), 3, true).warning).toBe(
      '1 recipient for 3 links: the last 2 keep their recipients',
    );
    expect(matchRecipients(parseRecipientLines('Sam\nAlex'), 1, true).errors).toEqual([
      '2 recipients for 1 link: remove 1 line',
    ]);
  });

  it('says nothing when nothing is pasted', () => {
    expect(matchRecipients([], 2)).toEqual({ errors: [], warning: null, recipients: [null, null] });
  });
});

describe('recipientLine', () => {
  it('says a recipient in one line', () => {
    expect(recipientLine({ name: 'Sam', email: 'sam@example.com' })).toBe('Sam <sam@example.com>');
    expect(recipientLine({ name: null, email: 'sam@example.com' })).toBe('sam@example.com');
    expect(recipientLine({ name: 'Sam', email: null })).toBe('Sam');
    expect(recipientLine(null)).toBeNull();
  });
});
