import type { Account, Ticket } from '@seatlink/contracts';
import { seatInfoCombined } from '@seatlink/contracts';

let counter = 0;

/** A ticket as GET /v1/tickets answers it; override what a test is about. */
export function aTicket(overrides: Partial<Ticket> = {}): Ticket {
  counter++;
  const seat = { section: 'Block 112', row: 'K', seat: String(counter % 40) };
  return {
    id: `t-${counter}`,
    account_id: 'acc-1',
    account_email: 'alex@wallet.test',
    title: 'Harbourside Athletic',
    subtitle: 'Season Ticket 2026/27',
    logo: null,
    venue_name: 'Quayside Stadium',
    seat: { ...seat, seat_info_combined: seatInfoCombined(seat) },
    metadata: { next_game: 'Harbourside Athletic vs Northgate Rovers', next_game_date: '2026-11-25T15:00:00.000Z' },
    is_duplicate: false,
    is_distributed: false,
    distribution: null,
    created_at: '2026-11-22T09:30:22.664Z',
    ...overrides,
  };
}

/** A linked wallet account as GET /v1/accounts answers it. */
export function anAccount(overrides: Partial<Account> = {}): Account {
  counter++;
  return {
    id: `acc-${counter}`,
    user_id: 'u-1',
    first_name: 'Alex',
    last_name: 'Carter',
    name: 'Alex Carter',
    email: 'alex@wallet.test',
    last_synced_at: null,
    createdAt: '2026-11-22T09:30:22.372Z',
    updatedAt: '2026-11-22T09:30:22.372Z',
    in_error_state: false,
    last_error: null,
    sync_error: null,
    skipped_passes: 0,
    ticket_count: 0,
    distributed_count: 0,
    syncing: false,
    ...overrides,
  };
}

const CLUBS = ['Harbourside Athletic', 'Northgate Rovers', 'Kingsmere United', 'Riverside Comets', 'Eastbridge Titans'];
const VENUES = ['Quayside Stadium', 'The Foundry Ground', 'Meadowbank Park', 'Riverside Arena', 'Eastbridge Dome'];

/**
 * `count` varied tickets across 20 accounts and 40 events: about 1 in 10 distributed (with expiries), 1 in 15 a
 * duplicate, some without seat, subtitle or next game. Deterministic.
 */
export function manyTickets(count: number): Ticket[] {
  const tickets: Ticket[] = [];
  for (let i = 0; i < count; i++) {
    const club = CLUBS[i % CLUBS.length]!;
    const rival = CLUBS[(i * 7 + 3) % CLUBS.length]!;
    const event = i % 8 === 0 ? club : `${club} vs ${rival} · Round ${i % 8}`;
    const account = i % 20;
    const distributed = i % 10 === 3;
    const duplicate = i % 15 === 7;
    const seat =
      i % 13 === 0
        ? null
        : { section: `Block ${100 + (i % 30)}`, row: String.fromCharCode(65 + (i % 20)), seat: String(i % 50) };
    tickets.push({
      id: `ticket-${i}`,
      account_id: `account-${account}`,
      account_email: `wallet-${account}@wallet.test`,
      title: event,
      subtitle: i % 11 === 0 ? null : `Season Ticket 2026/27 · ${i % 4 === 0 ? 'Hospitality' : 'General'}`,
      logo: null,
      venue_name: VENUES[i % VENUES.length]!,
      seat: seat
        ? { ...seat, seat_info_combined: seatInfoCombined(seat) }
        : { section: null, row: null, seat: null, seat_info_combined: null },
      metadata:
        i % 6 === 0
          ? { next_game: null, next_game_date: null }
          : {
              next_game: `${club} vs ${rival}`,
              next_game_date: new Date(Date.UTC(2026, 11, 1 + (i % 28), 15)).toISOString(),
            },
      is_duplicate: duplicate,
      is_distributed: distributed && !duplicate,
      distribution:
        distributed && !duplicate
          ? {
              distribution_id: `d-${i}`,
              id: `d-${i}`,
              link: `https://seatlink.test/l/${i.toString(36)}`,
              clicks: i % 5,
              max_clicks: i % 3 === 0 ? null : 10,
              expiry: i % 4 === 0 ? null : new Date(Date.UTC(2027, 0, 1 + (i % 300))).toISOString(),
              label: i % 7 === 0 ? `for guest ${i}` : null,
              has_pin: i % 11 === 0,
              pin_locked: false,
              claimed_by: null,
              recipient: null,
            }
          : null,
      created_at: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    });
  }
  return tickets;
}
