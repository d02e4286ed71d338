import { cleanOptionalText, cleanText, PASS_TEXT_LIMITS } from '../../infra/wallet/provider-text.js';
import type { PassDetails } from './wallet-account.events.js';

/**
 * A pass's shown text cleaned as the provider port cleans it (provider-text.ts). The port cleans what arrives now;
 * this cleans what older events hold, wherever they are folded or projected, so a rebuild cannot bring control or
 * bidirectional formatting characters back onto a page. The id and barcode are kept as recorded: tickets and
 * duplicate groups are keyed on them.
 */
export function cleanPassDetails(pass: PassDetails): PassDetails {
  return {
    ...pass,
    title: cleanText(pass.title, PASS_TEXT_LIMITS.title),
    subtitle: cleanOptionalText(pass.subtitle, PASS_TEXT_LIMITS.subtitle),
    venueName: cleanOptionalText(pass.venueName, PASS_TEXT_LIMITS.venueName),
    section: cleanOptionalText(pass.section, PASS_TEXT_LIMITS.section),
    row: cleanOptionalText(pass.row, PASS_TEXT_LIMITS.row),
    seat: cleanOptionalText(pass.seat, PASS_TEXT_LIMITS.seat),
    nextGame: cleanOptionalText(pass.nextGame, PASS_TEXT_LIMITS.nextGame),
    nextGameDate: cleanOptionalText(pass.nextGameDate, 64),
  };
}

/** A name of the account as the provider gave it (older events), cleaned. */
export const cleanName = (name: string, max = 200) => cleanText(name, max);
