/**
 * The passes of a big account's wallets: varied as a season-ticket broker's are (clubs, competitions, venues, seats,
 * next games over half a year), so that searching, sorting and filtering have work to do. Deterministic: the same
 * index always makes the same pass.
 */

/** Twenty clubs, each with its home ground; a pass is a home game of one against another. */
export const CLUBS = [
  ['Ashford Falcons', 'Falcon Hall'],
  ['Riverside Comets', 'Comet Arena'],
  ['Northgate Rovers', 'Northgate Park'],
  ['Quayside Mariners', 'Quayside Stadium'],
  ['Hillcrest Wanderers', 'Hillcrest Ground'],
  ['Eastfield Harriers', 'Eastfield Road'],
  ['Kingsmead Athletic', 'Kingsmead Lane'],
  ['Oakvale United', 'Oakvale Meadow'],
  ['Marston City', 'Marston Bowl'],
  ['Westbrook Royals', 'Royal Court'],
  ['Stonebridge Town', 'Stonebridge Works'],
  ['Larkhill Lions', 'Lion Yard'],
  ['Fenwick Foxes', 'Fox Den'],
  ['Brightmoor Blues', 'Brightmoor Arena'],
  ['Coldharbour Saints', 'Saints Field'],
  ['Ravensworth Rangers', 'Raven Park'],
  ['Silverdale Stars', 'Star Dome'],
  ['Thornbury Titans', 'Titan Park'],
  ['Underhill Orient', 'Underhill Green'],
  ['Millbrook Mariners', 'Mill Lane'],
] as const;

const COMPETITIONS = ['Premier Division', 'National Basketball League', 'Cup', 'Season Ticket 2026/27'] as const;
const SECTIONS = [
  'North Stand',
  'South Stand',
  'East Stand',
  'West Stand',
  'Lower Bowl 118',
  'Upper Tier 204',
] as const;
const ROWS = 'ABCDEFGHJKLMNPQRSTUV';
const DAY_MS = 86_400_000;

/** What the simulator's control API takes for one pass (`POST /control/wallets/:email/passes`). */
export interface PassInput {
  id: string;
  barcode: string;
  event: { title: string; subtitle: string; logo_slug: string };
  venue: { name: string };
  seat: { section: string; row: string; seat: string };
  next_game: { title: string; date: string };
  visible_after_ms: 0;
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Every this many passes, a wallet after the first holds the first wallet's pass: a duplicate (1 %). */
export const DUPLICATE_EVERY = 100;

/**
 * The `i`-th pass of wallet `w`. Ids and barcodes are unique, except that every `DUPLICATE_EVERY`-th pass of a
 * later wallet is the same pass as the first wallet's (same id and barcode: the same pass saved in two wallets).
 */
export function passOf(w: number, i: number, startOfDay: number): PassInput {
  if (w > 0 && i % DUPLICATE_EVERY === 0) return passOf(0, i, startOfDay);
  const n = w * 100_000 + i;
  const [home, ground] = CLUBS[n % CLUBS.length]!;
  // Any other club: an offset of 1..19 never comes back to the home club.
  const away = CLUBS[(n + 1 + (Math.floor(n / CLUBS.length) % (CLUBS.length - 1))) % CLUBS.length]![0];
  const title = `${home} vs ${away}`;
  const competition = COMPETITIONS[Math.floor(n / CLUBS.length) % COMPETITIONS.length]!;
  return {
    id: `bench-w${w}-${String(i).padStart(5, '0')}`,
    barcode: String(4_000_000_000_000_000 + n),
    event: { title, subtitle: `${competition} · Round ${(n % 38) + 1}`, logo_slug: slug(home) },
    venue: { name: ground },
    seat: {
      section: SECTIONS[n % SECTIONS.length]!,
      row: ROWS[Math.floor(n / 7) % ROWS.length]!,
      seat: String((n % 40) + 1),
    },
    next_game: { title, date: new Date(startOfDay + ((n % 180) + 1) * DAY_MS + 19.5 * 3_600_000).toISOString() },
    visible_after_ms: 0,
  };
}
