import { describe, expect, it } from 'vitest';
import { computeTicketStats } from './ticket-stats';

describe('ticket stats', () => {
  it('is all zero without tickets', () => {
    expect(computeTicketStats([])).toEqual({ total: 0, distributed: 0, distributionRate: 0, uniqueVenues: 0 });
  });

  it('counts distributed tickets and distinct venues', () => {
    const stats = computeTicketStats([
      { is_distributed: true, venue_name: 'North Stand Arena' },
      { is_distributed: false, venue_name: 'North Stand Arena' },
      { is_distributed: false, venue_name: 'Harbour Park' },
      { is_distributed: false, venue_name: null },
    ]);
    expect(stats).toEqual({ total: 4, distributed: 1, distributionRate: 25, uniqueVenues: 2 });
  });

  it('counts a venue by its trimmed name, wherever its tickets are in the list; a blank name is no venue', () => {
    const stats = computeTicketStats([
      { is_distributed: false, venue_name: 'Harbour Park' },
      { is_distributed: false, venue_name: ' Harbour Park ' },
      { is_distributed: true, venue_name: '   ' },
      { is_distributed: false, venue_name: 'North Stand Arena' },
      { is_distributed: true, venue_name: 'Harbour Park' },
      { is_distributed: false },
    ]);
    expect(stats).toEqual({ total: 6, distributed: 2, distributionRate: 33, uniqueVenues: 2 });
  });
});
