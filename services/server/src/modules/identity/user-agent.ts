import { createHash } from 'node:crypto';
import UAParser from 'ua-parser-js';

/** "Chrome 131", "iOS 18.1", "Apple iPhone" from a user agent (ua-parser-js); null for what it does not say. */
export function describeUserAgent(userAgent: string | null | undefined) {
  const { browser, os, device } = new UAParser(userAgent ?? '').getResult();
  const name = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ').slice(0, 80) || null;
  return {
    browser: name(browser.name, browser.version?.split('.')[0]),
    os: name(os.name, os.version),
    device: name(device.vendor, device.model),
  };
}

/**
 * A device as a sign-in tells it: its browser, system and model, without versions (an update is the same device).
 * Answers its name ("Chrome on Linux") and a key to remember it by.
 */
export function deviceOf(userAgent: string | null | undefined): { name: string; key: string } {
  const { browser, os, device } = new UAParser(userAgent ?? '').getResult();
  const name =
    [browser.name, os.name].filter(Boolean).join(' on ') +
    (device.model ? ` (${[device.vendor, device.model].filter(Boolean).join(' ')})` : '');
  const label = name.trim() || 'an unknown device';
  return { name: label.slice(0, 120), key: createHash('sha256').update(label).digest('hex').slice(0, 32) };
}
