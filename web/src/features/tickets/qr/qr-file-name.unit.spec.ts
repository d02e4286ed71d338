import { describe, expect, it } from 'vitest';
import { fileNamePart, qrFileName } from './qr-file-name';

describe('the QR downloads’ file names', () => {
  it('are seatlink-<event>-<seat>, lower case, hyphenated', () => {
    expect(qrFileName('Harbourside Athletic', 'Section 112, Row F, Seat 7', 'png')).toBe(
      'seatlink-harbourside-athletic-section-112-row-f-seat-7.png',
    );
    expect(qrFileName('Harbourside Athletic vs Northgate Rovers · Round 3', 'Block 107', 'svg')).toBe(
      'seatlink-harbourside-athletic-vs-northgate-rovers-round-3-block-107.svg',
    );
  });

  it('leave out a missing seat, and name an event with nothing usable "ticket"', () => {
    expect(qrFileName('Kingsmere United', null, 'png')).toBe('seatlink-kingsmere-united.png');
    expect(qrFileName('Kingsmere United', '', 'svg')).toBe('seatlink-kingsmere-united.svg');
    expect(qrFileName('★★★', '/', 'png')).toBe('seatlink-ticket.png');
  });

  it('hold nothing a file system refuses or reads as a path', () => {
    const name = qrFileName('../../etc/passwd: "AC/DC" <Live> | Mötley Crüe\\ Café?*', 'Row 1\u0000', 'png');
    expect(name).toBe('seatlink-etc-passwd-ac-dc-live-motley-crue-cafe-row-1.png');
    expect(name).toMatch(/^[a-z0-9-]+\.png$/);
    expect(fileNamePart('  -- Zürich -- ')).toBe('zurich');
  });

  it('stay short whatever the event is called', () => {
    const name = qrFileName('A'.repeat(500), 'B'.repeat(500), 'svg');
    expect(name.length).toBeLessThanOrEqual('seatlink-'.length + 60 + 1 + 60 + '.svg'.length);
    expect(name).not.toMatch(/--|-\./);
  });
});
