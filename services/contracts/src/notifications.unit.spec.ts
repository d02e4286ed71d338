import { describe, expect, it } from 'vitest';
import { claimantText, notificationText, type AppNotification } from './notifications.js';

const claimed = (count: number, claimedBy: AppNotification['claimed_by']): AppNotification => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'link_claimed',
  count,
  created_at: '2026-12-07T18:02:00.000Z',
  updated_at: '2026-12-07T18:02:00.000Z',
  read: false,
  ticket_id: null,
  distribution_id: null,
  account_id: null,
  subject: 'Oakmere Rovers',
  label: 'for Sam',
  max_clicks: null,
  expires_at: null,
  credits: null,
  amount_pence: null,
  claimed_by: claimedBy,
});

describe('who claimed, in words', () => {
  it('says the name, the time and the device it knows, and nothing when it knows neither', () => {
    expect(claimantText({ name: 'Sam', device: 'iPhone' }, '18:02')).toBe('claimed by Sam · 18:02 · iPhone');
    expect(claimantText({ name: 'Sam', device: null })).toBe('claimed by Sam');
    expect(claimantText({ name: null, device: 'Windows PC' }, '18:02')).toBe('claimed · 18:02 · Windows PC');
    expect(claimantText({ name: null, device: null }, '18:02')).toBeNull();
    expect(claimantText(null)).toBeNull();
  });

  it("keeps a claim notification's sentence (and its e-mail's subject) as it was", () => {
    const at = () => 'never';
    expect(notificationText(claimed(1, { name: 'Sam', device: 'iPhone' }), at)).toBe(
      'New claim on Oakmere Rovers (for Sam)',
    );
    expect(notificationText(claimed(3, null), at)).toBe('3 new claims on Oakmere Rovers (for Sam)');
  });
});
