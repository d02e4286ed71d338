import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../infra/db/database.js';
import { recipientMailKey } from './distribution.schema.js';

/** Where a recipient's e-mail unsubscribes them from the link's e-mails (its `List-Unsubscribe`). */
export const RECIPIENT_UNSUBSCRIBE_PATH = '/v1/recipients/unsubscribe';

/** What an unsubscribe token names: the link (and its ticket) and the address it was mailed to. */
export interface RecipientToken {
  ticketId: string;
  distributionId: string;
  email: string;
}

/** The signing key, made the first time it is needed (then kept). */
export async function recipientMailSecret(db: Executor): Promise<string> {
  await db
    .insert(recipientMailKey)
    .values({ id: 1, secret: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(recipientMailKey).where(eq(recipientMailKey.id, 1));
  return row!.secret;
}

/** The signing key if one was made (none: no mail was ever sent, so no token is valid); writes nothing. */
export async function existingRecipientMailSecret(db: Executor): Promise<string | null> {
  const [row] = await db.select().from(recipientMailKey).where(eq(recipientMailKey.id, 1));
  return row?.secret ?? null;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** A signed token: the link and address, readable, and an HMAC of them (nobody can make one for another link). */
export function recipientToken(secret: string, token: RecipientToken): string {
  const payload = Buffer.from(JSON.stringify([token.ticketId, token.distributionId, token.email])).toString(
    'base64url',
  );
  return `${payload}.${sign(secret, payload)}`;
}

/** What a token names, when its signature holds; null otherwise. */
export function readRecipientToken(secret: string, token: string): RecipientToken | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const [ticketId, distributionId, email] = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as unknown[];
    if (typeof ticketId !== 'string' || typeof distributionId !== 'string' || typeof email !== 'string') return null;
    return { ticketId, distributionId, email };
  } catch {
    return null;
  }
}

/** The address that unsubscribes with one click (RFC 8058: POSTed by the mail client; opened, it asks first). */
export const recipientUnsubscribeUrl = (dashboardUrl: string, token: string) =>
  `${dashboardUrl.replace(/\/+$/, '')}${RECIPIENT_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
