import { isSafeRedirect } from './link-states';

/** Where this device keeps the links it claimed (per code: where the pass was saved, and when). */
const STORAGE_KEY = 'seatlink.claimed';
/** Links remembered at most (the oldest go first). */
const MAX_REMEMBERED = 50;

export interface ClaimedHere {
  walletUrl: string;
  at: string;
}

function read(): Record<string, ClaimedHere> {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, ClaimedHere>)
      : {};
  } catch {
    // Storage refused (a private window) or spoiled: nothing is remembered.
    return {};
  }
}

/**
 * The claim of this link made on this device, if any: a recipient who comes back to a link they claimed sees that the
 * ticket is theirs (and can open it in their wallet again) rather than "ask for a new link". Only a web address kept by
 * the page itself is answered.
 */
export function claimedHere(code: string): ClaimedHere | null {
  const held = read()[code];
  if (!held || typeof held.walletUrl !== 'string' || typeof held.at !== 'string') return null;
  return isSafeRedirect(held.walletUrl) ? held : null;
}

/** Remembers a claim this device made (the newest MAX_REMEMBERED links are kept). */
export function rememberClaim(code: string, walletUrl: string, now = new Date()): void {
  const all = read();
  delete all[code];
  all[code] = { walletUrl, at: now.toISOString() };
  const kept = Object.entries(all).slice(-MAX_REMEMBERED);
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Storage full or refused: the claim stands, it is only not remembered here.
  }
}
