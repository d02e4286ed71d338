import { LINK_REFERRER_PATTERN, routes, type LinkOpenRequest } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';
import { deviceId } from '../device-id';

/**
 * Where the recipient came from, as an open says it: a `?ref=` or `utm_source` parameter of the page's address when
 * there is one (a token the sender chose), else the referring page's host name (never its path or query: they may
 * hold what is not ours to keep); null when neither is known, or is not a plain host name or token. The page's own
 * host is no referrer.
 */
export function referrerOf(pageUrl: string, documentReferrer: string): string | null {
  const page = URL.canParse(pageUrl) ? new URL(pageUrl) : null;
  const token = page?.searchParams.get('ref') ?? page?.searchParams.get('utm_source') ?? null;
  if (token) return LINK_REFERRER_PATTERN.test(token) ? token.toLowerCase() : null;
  if (!documentReferrer) return null;
  try {
    const host = new URL(documentReferrer).hostname.toLowerCase();
    if (!host || host === page?.hostname.toLowerCase()) return null;
    return LINK_REFERRER_PATTERN.test(host) ? host : null;
  } catch {
    return null;
  }
}

/** Links whose open this page load has sent (once per load, whatever renders again). */
const sent = new Set<string>();

/**
 * POST /v1/links/{code}/opens (public), once per page load and link: the link's first open by this browser is counted
 * for its owner (docs/reference.md "Link"). Fire and forget: it never holds the page up and its failure is ignored.
 * Nothing is sent where the browser keeps no device id (storage blocked).
 */
export function openLink(code: string): void {
  if (sent.has(code)) return;
  sent.add(code);
  const device = deviceId();
  if (!device) return;
  const referrer = referrerOf(window.location.href, document.referrer);
  const body: LinkOpenRequest = { device_id: device, ...(referrer ? { referrer } : {}) };
  callApi(routes.openLink, { params: { code }, body }).catch(() => undefined);
}
