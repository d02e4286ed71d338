import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';

/**
 * The kind of device a claim came from, as the link's owner reads it ("claimed by Sam · 18:02 · iPhone"): the model
 * for Apple's phones and tablets (they say it), else the system and its form ("Android phone", "Windows PC"); null
 * when the user agent does not say (ua-parser-js judges it). Never a version: an update is the same device.
 */
function deviceOf(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const { os, device } = new UAParser(userAgent).getResult();
  const model = device.model ?? '';
  if (model === 'iPhone' || model === 'iPad' || model === 'iPod touch') return model;
  const system = os.name ?? '';
  const form = device.type === 'tablet' ? 'tablet' : device.type === 'mobile' ? 'phone' : null;
  if (system === 'iOS') return form === 'tablet' ? 'iPad' : 'iPhone';
  if (system === 'Android' || system === 'HarmonyOS') return `${system} ${form ?? 'device'}`;
  if (system === 'Mac OS' || system === 'macOS') return 'Mac';
  if (system === 'Windows') return form ? `Windows ${form}` : 'Windows PC';
  if (system === 'Chromium OS' || system === 'Chrome OS') return 'Chromebook';
  if (form) return system ? `${system} ${form}` : form === 'tablet' ? 'Tablet' : 'Phone';
  if (system === 'Linux' || system === 'Ubuntu' || system === 'Debian' || system === 'Fedora') return 'Linux PC';
  return system ? system.slice(0, 40) : null;
}

/** What a User-Agent says of the client: a known bot or preview (counts nothing), and its device class. */
export interface UserAgentVerdict {
  automated: boolean;
  device: string | null;
}

/**
 * User-Agent strings already judged: isbot runs one long regular expression and ua-parser-js dozens (together the
 * largest cost of a claim in the process), and a link's recipients send few different ones. Bounded in bytes; an
 * agent longer than any browser's is judged each time and not kept.
 */
const judged = new LRUCache<string, UserAgentVerdict>({
  max: 2000,
  maxSize: 1024 * 1024,
  maxEntrySize: 1024,
  sizeCalculation: (_verdict, userAgent) => userAgent.length || 1,
});

/** The verdict on a User-Agent (none sent: automated, no device). */
export function judgeUserAgent(userAgent: string | null | undefined): UserAgentVerdict {
  if (!userAgent) return { automated: true, device: null };
  let verdict = judged.get(userAgent);
  if (verdict === undefined) {
    verdict = { automated: isbot(userAgent), device: deviceOf(userAgent) };
    judged.set(userAgent, verdict);
  }
  return verdict;
}
