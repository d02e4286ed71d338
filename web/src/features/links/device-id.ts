import { LINK_DEVICE_ID_PATTERN } from '@seatlink/contracts';

const KEY = 'seatlink.device';

/**
 * The id this browser sends with a PIN (`device_id`): random, made once and kept in localStorage. PINs are slowed per
 * device and per address, so wrong PINs tried elsewhere do not slow this browser. Null where storage is unavailable
 * (the claim is then judged by its address only).
 */
export function deviceId(): string | null {
  try {
    const kept = window.localStorage.getItem(KEY);
    if (kept && LINK_DEVICE_ID_PATTERN.test(kept)) return kept;
    const made = crypto.randomUUID();
    window.localStorage.setItem(KEY, made);
    return made;
  } catch {
    return null;
  }
}
