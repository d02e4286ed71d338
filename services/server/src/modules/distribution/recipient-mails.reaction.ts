import { Inject, Injectable } from '@nestjs/common';
import { v5 as uuidv5 } from 'uuid';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.port.js';
import { queueMail } from '../../infra/mail/mail-outbox.js';
import { MailOutbox } from '../../infra/mail/mail.module.js';
import {
  EventSubscription,
  type Subscription,
  type SubscriptionContext,
} from '../../infra/subscriptions/subscription.js';
import { findUserById } from '../identity/index.js';
import { ticketTitleAndSeat } from '../wallet-accounts/index.js';
import type { LinkRecipientData, TicketDistributionEvent } from './distribution.events.js';
import { ticketDistributionStream } from './distribution.events.js';
import { recipientMails } from './distribution.schema.js';
import { linkUrl } from './link-url.js';
import { recipientEmail, type RecipientMailKind } from './recipient.emails.js';
import { recipientMailSecret, recipientToken, recipientUnsubscribeUrl } from './recipient-mail-tokens.js';
import { clock } from '../../shared/clock.js';

const MAIL_ID_NAMESPACE = '8c1f4e2a-7b3d-4a6e-9f05-2d8c6b1e3a97';

/** A link as its ticket's stream tells it at one of its events. */
interface LinkAt {
  code: string;
  userId: string;
  recipient: LinkRecipientData | null;
  hasPin: boolean;
  expiresAt: string | null;
}

/**
 * The link `distributionId` as its ticket's stream holds it just after the event `eventId`, and the addresses of its
 * recipients who unsubscribed (at any time: an unsubscribe stops the mails still to go, whenever they were due).
 */
function linkAt(events: readonly RecordedEvent[], distributionId: string, eventId: string) {
  let link = null as LinkAt | null;
  let reached = false;
  const unsubscribed = new Set<string>();
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as TicketDistributionEvent;
    if (!('distributionId' in event.data) || event.data.distributionId !== distributionId) {
      if (recorded.id === eventId) reached = true;
      continue;
    }
    if (event.type === 'LinkRecipientUnsubscribed') unsubscribed.add(event.data.email);
    if (!reached) {
      if (event.type === 'TicketDistributed') {
        const d = event.data;
        link = {
          code: d.code,
          userId: d.userId,
          recipient: d.recipient ?? null,
          hasPin: Boolean(d.pinHash),
          expiresAt: d.expiresAt,
        };
      } else if (event.type === 'LinkUpdated' && link !== null) {
        const s = event.data.settings;
        const before: LinkAt = link;
        link = {
          ...before,
          expiresAt: s.expiresAt,
          ...('pinHash' in s ? { hasPin: s.pinHash !== null } : {}),
          ...('recipient' in s ? { recipient: s.recipient ?? null } : {}),
        };
      }
    }
    if (recorded.id === eventId) reached = true;
  }
  return { link, unsubscribed };
}

/** The e-mail an event asks for (a kind, to whom), if any. */
function mailOf(event: TicketDistributionEvent, link: LinkAt): { kind: RecipientMailKind; to: string } | null {
  const email = link.recipient?.email ?? null;
  if (email === null) return null;
  switch (event.type) {
    case 'TicketDistributed':
      return { kind: 'link', to: email };
    case 'LinkUpdated': {
      const { previous } = event.data;
      // A new address gets the link itself (its expiry said in it); the same address hears of a moved expiry.
      if ('recipient' in previous && (previous.recipient?.email ?? null) !== email) return { kind: 'link', to: email };
      if ('expiresAt' in previous) return { kind: 'expiry-moved', to: email };
      return null;
    }
    case 'TicketRecalled':
      return { kind: 'recalled', to: email };
    case 'LinkExpiryNear':
      return { kind: 'expiring', to: email };
    default:
      return null;
  }
}

/**
 * The e-mails of links' named recipients (docs/reference.md "Link"): the link when it is made for them (or their
 * address changes), a word when it is withdrawn, when its expiry moves and when it expires within a day. Never the
 * PIN: only its hash is kept; the mail says the sender will give it. Each e-mail is written down in `recipient_mails`
 * (unique per event and kind) in the transaction that queues it in the outbox and moves this reaction's checkpoint:
 * a batch retried, a restart or a reset of the reaction queues nothing twice. A recipient who unsubscribed from the
 * link (LinkRecipientUnsubscribed, that link and that address) gets nothing more about it.
 */
@Injectable()
@EventSubscription()
export class RecipientMailsReaction implements Subscription {
  readonly name = 'recipient-mails';
  readonly kind = 'reaction' as const;
  readonly handles = ['TicketDistributed', 'LinkUpdated', 'TicketRecalled', 'LinkExpiryNear'] as const;

  constructor(
    private readonly outbox: MailOutbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async apply(events: readonly RecordedEvent[], { tx, afterCommit, store }: SubscriptionContext) {
    const now = clock.now();
    let queued = 0;
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as TicketDistributionEvent;
      // Cheap first look: a link made for nobody with an e-mail asks for nothing (most links).
      if (event.type === 'TicketDistributed' && !event.data.recipient?.email) continue;
      const { ticketId, distributionId } = event.data as { ticketId: string; distributionId: string };
      const { events: stream } = await store.readStream(ticketDistributionStream(ticketId));
      const { link, unsubscribed } = linkAt(stream, distributionId, recorded.id);
      if (!link) continue;
      const mail = mailOf(event, link);
      if (!mail || unsubscribed.has(mail.to)) continue;
      const [fresh] = await tx
        .insert(recipientMails)
        .values({ eventId: recorded.id, kind: mail.kind, distributionId, sentAt: now })
        .onConflictDoNothing()
        .returning({ eventId: recipientMails.eventId });
      // Sent before (a batch retried, a replay): once is enough.
      if (!fresh) continue;
      const [ticket, holder, secret] = [
        await ticketTitleAndSeat(tx, ticketId),
        await findUserById(tx, link.userId),
        await recipientMailSecret(tx),
      ];
      const holderName = holder ? `${holder.first_name} ${holder.last_name ?? ''}`.trim() : '';
      const token = recipientToken(secret, { ticketId, distributionId, email: mail.to });
      const message = recipientEmail({
        kind: mail.kind,
        to: mail.to,
        name: link.recipient?.name ?? null,
        sender: holderName || holder?.email || 'A Seatlink user',
        ticket: ticket ? [ticket.title, ticket.seat].filter(Boolean).join(' · ') : 'a ticket',
        link: linkUrl(this.config.DASHBOARD_URL, link.code),
        hasPin: link.hasPin,
        expiresAt: event.type === 'LinkExpiryNear' ? event.data.expiresAt : link.expiresAt,
        unsubscribeUrl: recipientUnsubscribeUrl(this.config.DASHBOARD_URL, token),
      });
      await queueMail(tx, uuidv5(`${recorded.id}/${mail.kind}`, MAIL_ID_NAMESPACE), message, now);
      queued++;
    }
    if (queued > 0) afterCommit(() => this.outbox.nudge());
  }
}
