import { createHash } from 'node:crypto';
import { type Club, DEMO_CLUBS } from './demo-data.js';

/** A logo file name: a slug of lower-case letters, digits and dashes, then `.svg`. */
export const LOGO_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.svg$/;
export const MAX_SLUG_LENGTH = 64;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STOP_WORDS = new Set(['fc', 'afc', 'cf', 'sc', 'the', 'club', 'of']);

/** A badge for a slug the simulator has never heard of: colours from its hash, initials from its words. */
function inventClub(slug: string): Pick<Club, 'name' | 'initials' | 'sport' | 'colors'> {
  const words = slug.split('-');
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  const significant = words.filter((word) => !STOP_WORDS.has(word) && /^[a-z]/.test(word));
  const initials = (significant.length ? significant : words)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
  const hash = createHash('sha256').update(slug).digest();
  const hue = ((hash[0] ?? 0) * 256 + (hash[1] ?? 0)) % 360;
  return {
    name,
    initials,
    sport: (hash[2] ?? 0) % 2 === 0 ? 'football' : 'basketball',
    colors: { primary: `hsl(${hue}, 62%, 30%)`, secondary: `hsl(${(hue + 150) % 360}, 85%, 62%)` },
  };
}

/** The SVG badge of a club: a shield (football) or a ball (basketball) in its colours, with its initials. */
export function renderLogo(slug: string): string {
  const club = DEMO_CLUBS.find((candidate) => candidate.slug === slug) ?? inventClub(slug);
  const { primary, secondary } = club.colors;
  const label = escapeXml(club.name);
  const initials = escapeXml(club.initials);
  const fontSize = club.initials.length > 2 ? 32 : 42;
  const shape =
    club.sport === 'basketball'
      ? [
          `<circle cx="64" cy="64" r="58" fill="${primary}" stroke="${secondary}" stroke-width="6"/>`,
          `<path d="M64 6v116M6 64h116M22 22c20 20 20 64 0 84M106 22c-20 20-20 64 0 84" fill="none" stroke="${secondary}" stroke-width="3" stroke-opacity="0.45"/>`,
        ]
      : [
          `<path d="M64 6 116 22v40c0 32-22 52-52 60C34 114 12 94 12 62V22Z" fill="${primary}" stroke="${secondary}" stroke-width="6" stroke-linejoin="round"/>`,
          `<path d="M20 30h88" stroke="${secondary}" stroke-width="4" stroke-opacity="0.6"/>`,
        ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    ...shape,
    `<text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" font-weight="700" fill="${secondary}">${initials}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
