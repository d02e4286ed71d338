import { createHash } from 'node:crypto';
import type { NewPass, WalletSim } from './wallet-sim.store.js';

/** A fictional club: its badge colours and initials make its logo. */
export interface Club {
  slug: string;
  name: string;
  initials: string;
  sport: 'football' | 'basketball';
  colors: { primary: string; secondary: string };
  venue: string;
  city: string;
}

export const DEMO_CLUBS: readonly Club[] = [
  {
    slug: 'harbourside-athletic',
    name: 'Harbourside Athletic',
    initials: 'HA',
    sport: 'football',
    colors: { primary: '#0B2545', secondary: '#F2C14E' },
    venue: 'Quayside Stadium',
    city: 'Port Ellery',
  },
  {
    slug: 'northgate-rovers',
    name: 'Northgate Rovers',
    initials: 'NR',
    sport: 'football',
    colors: { primary: '#B3202A', secondary: '#FFFFFF' },
    venue: 'The Foundry Ground',
    city: 'Northgate',
  },
  {
    slug: 'kingsmere-united',
    name: 'Kingsmere United',
    initials: 'KU',
    sport: 'football',
    colors: { primary: '#1E6B3A', secondary: '#F5F1E3' },
    venue: 'Meadowbank Park',
    city: 'Kingsmere',
  },
  {
    slug: 'riverside-comets',
    name: 'Riverside Comets',
    initials: 'RC',
    sport: 'basketball',
    colors: { primary: '#4B1E78', secondary: '#FF9F1C' },
    venue: 'Riverside Arena',
    city: 'Riverside',
  },
  {
    slug: 'eastbridge-titans',
    name: 'Eastbridge Titans',
    initials: 'ET',
    sport: 'basketball',
    colors: { primary: '#14213D', secondary: '#2EC4B6' },
    venue: 'Eastbridge Dome',
    city: 'Eastbridge',
  },
  {
    slug: 'ashford-falcons',
    name: 'Ashford Falcons',
    initials: 'AF',
    sport: 'basketball',
    colors: { primary: '#7B1E3A', secondary: '#C9CED6' },
    venue: 'Falcon Hall',
    city: 'Ashford',
  },
];

export interface DemoWallet {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}

/** The demo logins (printed at start and listed in the README). */
export const DEMO_WALLETS: readonly DemoWallet[] = [
  { email: 'alex@wallet.test', password: 'Wallet123!', first_name: 'Alex', last_name: 'Carter' },
  { email: 'sam@wallet.test', password: 'Wallet123!', first_name: 'Sam', last_name: 'Okafor' },
  { email: 'jordan@wallet.test', password: 'Wallet123!', first_name: 'Jordan', last_name: 'Reyes' },
];

type ClubKey = 'HA' | 'NR' | 'KU' | 'RC' | 'ET' | 'AF';
const club = (initials: ClubKey): Club => DEMO_CLUBS.find((candidate) => candidate.initials === initials)!;

interface Fixture {
  home: ClubKey;
  away: ClubKey;
  /** Days from today (UTC) and the kick-off / tip-off time (UTC). */
  day: number;
  time: string;
  competition: string;
}

const FIXTURES = {
  'ha-nr': { home: 'HA', away: 'NR', day: 3, time: '15:00', competition: 'Premier Division · Matchday 13' },
  'nr-ku': { home: 'NR', away: 'KU', day: 9, time: '15:00', competition: 'Premier Division · Matchday 14' },
  'ku-ha': { home: 'KU', away: 'HA', day: 10, time: '15:00', competition: 'Premier Division · Matchday 14' },
  'ha-ku-cup': { home: 'HA', away: 'KU', day: 14, time: '19:45', competition: 'Coastal Cup · Quarter-Final' },
  'nr-ha': { home: 'NR', away: 'HA', day: 17, time: '15:00', competition: 'Premier Division · Matchday 15' },
  'ku-nr': { home: 'KU', away: 'NR', day: 24, time: '12:30', competition: 'Premier Division · Matchday 16' },
  'ha-ku': { home: 'HA', away: 'KU', day: 31, time: '15:00', competition: 'Premier Division · Matchday 17' },
  'rc-et': { home: 'RC', away: 'ET', day: 5, time: '19:30', competition: 'National Basketball League · Round 9' },
  'et-af': { home: 'ET', away: 'AF', day: 6, time: '19:30', competition: 'National Basketball League · Round 9' },
  'af-rc': { home: 'AF', away: 'RC', day: 12, time: '18:00', competition: 'National Basketball League · Round 10' },
  'et-rc': { home: 'ET', away: 'RC', day: 19, time: '19:30', competition: 'National Basketball League · Round 11' },
  'rc-af': { home: 'RC', away: 'AF', day: 26, time: '19:30', competition: 'National Basketball League · Round 12' },
  'af-et': { home: 'AF', away: 'ET', day: 33, time: '18:00', competition: 'National Basketball League · Round 13' },
} satisfies Record<string, Fixture>;
type FixtureKey = keyof typeof FIXTURES;

/** A club's first home game (what a season ticket shows as its next game). */
const HOME_OPENER: Record<ClubKey, FixtureKey> = {
  HA: 'ha-nr',
  NR: 'nr-ku',
  KU: 'ku-ha',
  RC: 'rc-et',
  ET: 'et-af',
  AF: 'af-rc',
};

type SeatSpec = [section: string, row: string, seat: string] | null;

type DemoPassKind =
  | { kind: 'season'; club: ClubKey; label?: string }
  | { kind: 'membership'; club: ClubKey }
  | { kind: 'match'; fixture: FixtureKey }
  | { kind: 'event'; club: ClubKey; title: string; subtitle: string; day: number; time: string };

interface DemoPass {
  /** Stable key: the pass id and barcode derive from it, so they survive restarts. */
  key: string;
  /** The wallets holding it (two: a duplicate). */
  holders: string[];
  seat: SeatSpec;
  /** A pass still arriving: visible this many minutes after seeding. */
  arrivesInMinutes?: number;
  /** Share another pass's barcode under a pass id of its own (a re-issued ticket: a duplicate by barcode). */
  barcodeOf?: string;
  what: DemoPassKind;
}

const ALEX = 'alex@wallet.test';
const SAM = 'sam@wallet.test';
const JORDAN = 'jordan@wallet.test';

const DEMO_PASSES: DemoPass[] = [
  // Alex: Harbourside season tickets for two, Comets courtside, away days.
  { key: 'alex-ha-season-1', holders: [ALEX], seat: ['Block 112', 'K', '23'], what: { kind: 'season', club: 'HA' } },
  { key: 'alex-ha-season-2', holders: [ALEX], seat: ['Block 112', 'K', '24'], what: { kind: 'season', club: 'HA' } },
  {
    key: 'alex-rc-courtside',
    holders: [ALEX],
    seat: ['Courtside', 'A', '7'],
    what: { kind: 'season', club: 'RC', label: 'Courtside Season Pass' },
  },
  {
    key: 'alex-ku-ha',
    holders: [ALEX],
    seat: ['Away End · Block A2', 'F', '12'],
    what: { kind: 'match', fixture: 'ku-ha' },
  },
  {
    key: 'alex-ha-ku-cup',
    holders: [ALEX],
    seat: ['Block 114', 'P', '3'],
    what: { kind: 'match', fixture: 'ha-ku-cup' },
  },
  { key: 'alex-ha-membership', holders: [ALEX], seat: null, what: { kind: 'membership', club: 'HA' } },
  {
    key: 'alex-nr-ha',
    holders: [ALEX],
    seat: ['Away End · North Stand', 'C', '30'],
    what: { kind: 'match', fixture: 'nr-ha' },
  },
  {
    key: 'alex-ha-ku',
    holders: [ALEX],
    seat: ['Block 109', 'B', '8'],
    arrivesInMinutes: 2,
    what: { kind: 'match', fixture: 'ha-ku' },
  },
  {
    key: 'alex-rc-af',
    holders: [ALEX],
    seat: ['Court Level 104', 'C', '9'],
    arrivesInMinutes: 6,
    what: { kind: 'match', fixture: 'rc-af' },
  },
  // In two wallets at once (the same pass id and barcode): duplicates.
  {
    key: 'shared-et-rc',
    holders: [ALEX, SAM],
    seat: ['Upper Tier 210', 'H', '15'],
    what: { kind: 'match', fixture: 'et-rc' },
  },
  {
    key: 'shared-af-rc',
    holders: [ALEX, JORDAN],
    seat: ['Lower Bowl 118', 'E', '4'],
    what: { kind: 'match', fixture: 'af-rc' },
  },
  {
    key: 'shared-ku-nr',
    holders: [SAM, JORDAN],
    seat: ['Main Stand M4', '12', '9'],
    what: { kind: 'match', fixture: 'ku-nr' },
  },
  // Sam: Northgate season tickets and hospitality, Titans season ticket.
  { key: 'sam-nr-season-1', holders: [SAM], seat: ['East Stand E3', '8', '41'], what: { kind: 'season', club: 'NR' } },
  { key: 'sam-nr-season-2', holders: [SAM], seat: ['East Stand E3', '8', '42'], what: { kind: 'season', club: 'NR' } },
  { key: 'sam-et-season', holders: [SAM], seat: ['Lower Bowl 112', 'D', '3'], what: { kind: 'season', club: 'ET' } },
  {
    key: 'sam-nr-hospitality',
    holders: [SAM],
    seat: ["Directors' Lounge", 'Table 6', '2'],
    what: { kind: 'season', club: 'NR', label: 'Hospitality · Season' },
  },
  {
    key: 'sam-ha-nr',
    holders: [SAM],
    seat: ['Away Section · West Stand', 'G', '17'],
    what: { kind: 'match', fixture: 'ha-nr' },
  },
  { key: 'sam-et-af', holders: [SAM], seat: ['Lower Bowl 101', 'J', '20'], what: { kind: 'match', fixture: 'et-af' } },
  {
    key: 'sam-nr-ha',
    holders: [SAM],
    seat: ['East Stand E1', '2', '5'],
    arrivesInMinutes: 4,
    what: { kind: 'match', fixture: 'nr-ha' },
  },
  {
    key: 'sam-af-et',
    holders: [SAM],
    seat: ['Upper Tier 305', 'A', '1'],
    arrivesInMinutes: 11,
    what: { kind: 'match', fixture: 'af-et' },
  },
  // Jordan: Kingsmere and Falcons season tickets, a cup away day, an open practice without seats.
  {
    key: 'jordan-ku-season',
    holders: [JORDAN],
    seat: ['Main Stand M2', '19', '5'],
    what: { kind: 'season', club: 'KU' },
  },
  {
    key: 'jordan-af-season',
    holders: [JORDAN],
    seat: ['Upper Tier 305', 'B', '11'],
    what: { kind: 'season', club: 'AF' },
  },
  {
    key: 'jordan-ha-ku-cup',
    holders: [JORDAN],
    seat: ['Away End · Block 120', 'R', '14'],
    what: { kind: 'match', fixture: 'ha-ku-cup' },
  },
  {
    key: 'jordan-af-open-practice',
    holders: [JORDAN],
    seat: null,
    what: {
      kind: 'event',
      club: 'AF',
      title: 'Ashford Falcons Open Practice',
      subtitle: 'Community Day · General Admission',
      day: 20,
      time: '11:00',
    },
  },
  // Re-issued to Jordan under a new pass id, still carrying Alex's barcode: a duplicate by barcode.
  {
    key: 'jordan-ha-season-reissued',
    holders: [JORDAN],
    seat: ['Block 112', 'K', '24'],
    barcodeOf: 'alex-ha-season-2',
    what: { kind: 'season', club: 'HA' },
  },
  {
    key: 'jordan-ku-ha',
    holders: [JORDAN],
    seat: ['Main Stand M2', '19', '6'],
    arrivesInMinutes: 8,
    what: { kind: 'match', fixture: 'ku-ha' },
  },
  {
    key: 'jordan-af-et',
    holders: [JORDAN],
    seat: ['Upper Tier 305', 'B', '12'],
    arrivesInMinutes: 14,
    what: { kind: 'match', fixture: 'af-et' },
  },
];

const hex = (key: string) => createHash('sha256').update(key).digest('hex');

/** The stable pass id of a demo pass. */
export const demoPassId = (key: string) => `ps_${hex(`demo-pass:${key}`).slice(0, 20)}`;

/** The stable 16-digit barcode of a demo pass. */
export function demoBarcode(key: string): string {
  const digest = createHash('sha256').update(`demo-barcode:${key}`).digest();
  return [...digest.subarray(0, 16)].map((byte) => String(byte % 10)).join('');
}

/** "2026/27" for a date from July 2026 to June 2027. */
export function seasonLabel(now: number): string {
  const date = new Date(now);
  const start = date.getUTCMonth() >= 6 ? date.getUTCFullYear() : date.getUTCFullYear() - 1;
  return `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
}

function gameDate(now: number, day: number, time: string): string {
  const midnight = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return new Date(midnight + day * 86_400_000 + (hours * 60 + minutes) * 60_000).toISOString();
}

function fixtureGame(now: number, key: FixtureKey) {
  const fixture: Fixture = FIXTURES[key];
  const home = club(fixture.home);
  return {
    home,
    title: `${home.name} vs ${club(fixture.away).name}`,
    date: gameDate(now, fixture.day, fixture.time),
    competition: fixture.competition,
  };
}

function passInput(spec: DemoPass, now: number): NewPass {
  const season = seasonLabel(now);
  const base = {
    id: demoPassId(spec.key),
    barcode: demoBarcode(spec.barcodeOf ?? spec.key),
    seat: spec.seat ? { section: spec.seat[0], row: spec.seat[1], seat: spec.seat[2] } : null,
    visible_after_ms: (spec.arrivesInMinutes ?? 0) * 60_000,
  };
  const what = spec.what;
  switch (what.kind) {
    case 'season':
    case 'membership': {
      const owner = club(what.club);
      const opener = fixtureGame(now, HOME_OPENER[what.club]);
      const subtitle =
        what.kind === 'membership' ? `Club Membership ${season}` : `${what.label ?? 'Season Ticket'} ${season}`;
      return {
        ...base,
        event: { title: owner.name, subtitle, logo_slug: owner.slug },
        venue: { name: owner.venue },
        next_game: what.kind === 'membership' ? null : { title: opener.title, date: opener.date },
      };
    }
    case 'match': {
      const game = fixtureGame(now, what.fixture);
      return {
        ...base,
        event: { title: game.title, subtitle: game.competition, logo_slug: game.home.slug },
        venue: { name: game.home.venue },
        next_game: { title: game.title, date: game.date },
      };
    }
    case 'event': {
      const owner = club(what.club);
      return {
        ...base,
        event: { title: what.title, subtitle: what.subtitle, logo_slug: owner.slug },
        venue: { name: owner.venue },
        next_game: { title: what.title, date: gameDate(now, what.day, what.time) },
      };
    }
  }
}

/**
 * Seeds the demo wallets: a few dozen passes of six fictional clubs, some in two wallets (duplicates), a few arriving
 * over the next minutes. Pass ids and barcodes are stable; game dates follow the clock (the coming weeks).
 */
export function seedDemoData(sim: WalletSim): void {
  for (const wallet of DEMO_WALLETS) sim.createWallet(wallet);
  const now = sim.now();
  for (const spec of DEMO_PASSES) {
    const input = passInput(spec, now);
    for (const holder of spec.holders) sim.addPass(holder, input);
  }
}
