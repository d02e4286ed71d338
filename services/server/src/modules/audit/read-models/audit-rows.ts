import { createHash } from 'node:crypto';
import {
  AUDIT_EVENT_KINDS,
  type AuditEventType,
  type AuditStatus,
  type LinkRecipient,
  recipientLine,
  seatInfoCombined,
} from '@seatlink/contracts';
import type { RecordedEvent } from '../../../infra/event-store/event-store.port.js';
import type { ApiKeyEvent } from '../../api-keys/index.js';
import type { CreditsEvent } from '../../credits/index.js';
import type { DistributionEvent, LinkClicked, LinkOpened } from '../../distribution/index.js';
import type { UserEvent } from '../../identity/index.js';
import type { TicketChanged, TicketDiscovered } from '../../wallet-accounts/index.js';
import type { WebhookEvent } from '../../webhooks/index.js';
import type { auditEntries, auditNames } from '../audit.schema.js';

// What the audit log makes of each event: its row (audit_entries), the names it gives (audit_names), and a link's
// claims summed per hour. Pure: the projection writes what these say, in the process or (claims) in the database.

export type AuditRow = typeof auditEntries.$inferInsert;
export type AuditNameRow = typeof auditNames.$inferInsert;

type AuditedEvent =
  DistributionEvent | CreditsEvent | UserEvent | ApiKeyEvent | WebhookEvent | TicketDiscovered | TicketChanged;

/** The events that are entries of the log (LinkClicked and LinkOpened: summed per link and hour). */
export const AUDIT_ROW_EVENTS = [
  'TicketDistributed',
  'DistributionRefused',
  'DistributionVoided',
  'TicketRecalled',
  'RecallRefused',
  'LinkUpdated',
  'LinkUpdateRefused',
  'LinkPinLocked',
  'LinkPinGuessed',
  'LinkRecipientUnsubscribed',
  'LinkClicked',
  'LinkOpened',
  'CreditsSet',
  'CreditsPurchased',
  'CreditsDebited',
  'CreditsRefunded',
  'CreditsReversed',
  'PaymentDisputed',
  'UserBanned',
  'UserUnbanned',
  'PasswordResetRequested',
  'PasswordChanged',
  'SignInFromNewDevice',
  'SessionsSignedOut',
  'TotpEnabled',
  'TotpDisabled',
  'PasskeyAdded',
  'PasskeyRemoved',
  'RecoveryCodeUsed',
  'ApiKeyCreated',
  'ApiKeyRevoked',
  'WebhookEndpointCreated',
  'WebhookEndpointUpdated',
  'WebhookSecretRolled',
  'WebhookEndpointDisabled',
  'WebhookEndpointEnabled',
  'WebhookEndpointDeleted',
] as const satisfies ReadonlyArray<AuditedEvent['type']>;

/** The events that only name things the entries refer to (a user's e-mail, a ticket's title and seat). */
export const AUDIT_NAME_EVENTS = [
  'UserRegistered',
  'TicketDiscovered',
  'TicketChanged',
] as const satisfies ReadonlyArray<AuditedEvent['type']>;

/** The settings of a link by the names the API gives them. */
const SETTING_NAMES = {
  expiresAt: 'expiry_date',
  maxClicks: 'max_clicks',
  label: 'label',
  pinHash: 'pin',
  recipient: 'recipient',
} as const;

/** The action a refusal is an entry of. */
const REFUSED_ACTION = {
  DistributionRefused: 'DISTRIBUTE',
  DistributionVoided: 'DISTRIBUTE',
  RecallRefused: 'TICKET_RECALLED',
  LinkUpdateRefused: 'LINK_UPDATED',
} as const;

/** What an entry is about beyond its user: the ticket and link, who did it, what it acts on, from where. */
interface EntryRefs {
  ticketId?: string | null;
  distributionId?: string | null;
  /** Who did it (an admin); by default who sent the command. Kept only when it is not the user. */
  actorId?: string | null;
  subjectId?: string | null;
  ip?: string | null;
}

const metadataText = (recorded: RecordedEvent, key: string) => {
  const value = recorded.metadata[key];
  return typeof value === 'string' ? value : null;
};

/** The audit row of an event, or null for events that are no entry of their own (claims are summed apart). */
export function auditRowOf(recorded: RecordedEvent): AuditRow | null {
  const event = { type: recorded.type, data: recorded.data } as AuditedEvent;
  const entry = (
    eventType: AuditEventType,
    status: AuditStatus,
    userId: string,
    refs: EntryRefs,
    details: Record<string, unknown> = {},
  ): AuditRow => {
    const ticketId = refs.ticketId ?? null;
    const distributionId = refs.distributionId ?? null;
    const actorId = refs.actorId ?? metadataText(recorded, 'actorId');
    const apiKey = metadataText(recorded, 'apiKey');
    return {
      id: recorded.id,
      userId,
      createdAt: recorded.createdAt,
      kind: AUDIT_EVENT_KINDS[eventType],
      eventType,
      status,
      ticketId,
      distributionId,
      ipAddress: refs.ip ?? metadataText(recorded, 'ip'),
      bulkAction: recorded.metadata.bulk === true,
      actorId: actorId && actorId !== userId ? actorId : null,
      subjectId: refs.subjectId ?? null,
      count: 1,
      lastAt: null,
      eventData: {
        status,
        ticket_id: ticketId,
        distribution_id: distributionId,
        ...details,
        // Done with an API key: its name (the key itself is nowhere) and id.
        ...(apiKey ? { api_key: apiKey, api_key_id: metadataText(recorded, 'apiKeyId') } : {}),
      },
    };
  };
  /** A SUCCESS entry of the user the event is about (most of them). */
  const done = (eventType: AuditEventType, refs: EntryRefs = {}, details: Record<string, unknown> = {}): AuditRow =>
    entry(eventType, 'SUCCESS', event.data.userId, refs, details);
  switch (event.type) {
    case 'TicketDistributed': {
      const { data } = event;
      return done('DISTRIBUTE', data, {
        expires_at: data.expiresAt,
        max_clicks: data.maxClicks,
        cost: data.cost,
        ...(data.label ? { label: data.label } : {}),
        // Whom the link is for, in one line ("Sam <sam@example.com>").
        ...(data.recipient ? { recipient: recipientLine(data.recipient) } : {}),
      });
    }
    case 'LinkUpdated': {
      const { data } = event;
      // What changed, from what to what, in the API's own words.
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [key, from] of Object.entries(data.previous)) {
        const name = key as keyof typeof SETTING_NAMES;
        const to = data.settings[name];
        // A PIN is said as none, set or new (one replaced by another), never its hash.
        changes[SETTING_NAMES[name]] =
          name === 'pinHash'
            ? { from: from ? 'set' : 'none', to: to ? (from ? 'new' : 'set') : 'none' }
            : name === 'recipient'
              ? { from: recipientLine(from as LinkRecipient | null), to: recipientLine(to as LinkRecipient | null) }
              : { from, to };
      }
      return done('LINK_UPDATED', data, {
        changes,
        ...(data.settings.label ? { label: data.settings.label } : {}),
      });
    }
    case 'LinkPinLocked':
      return done('LINK_UPDATED', event.data, {
        changes: { pin: { from: 'set', to: 'locked' } },
        reason: `Locked after ${event.data.failures} wrong PINs`,
      });
    case 'LinkRecipientUnsubscribed':
      // The recipient stopped the link's e-mails to their address (the link itself works as before).
      return done('LINK_UPDATED', event.data, {
        changes: { recipient_emails: { from: 'on', to: 'off' } },
        reason: `${event.data.email} unsubscribed from this link's e-mails`,
      });
    case 'LinkPinGuessed':
      // Wrong PINs tried: nothing changed, the link's owner was told (never the PIN, nor its hash).
      return done('LINK_PIN_GUESSED', event.data, {
        failures: event.data.failures,
        since: event.data.since,
      });
    case 'DistributionRefused':
    case 'DistributionVoided':
    case 'RecallRefused':
    case 'LinkUpdateRefused':
      return entry(REFUSED_ACTION[event.type], 'FAILED', event.data.userId, event.data, {
        code: event.data.code,
        reason: event.data.reason,
      });
    case 'TicketRecalled':
      return done('TICKET_RECALLED', event.data);

    case 'CreditsSet': {
      const { data } = event;
      return done(
        'CREDITS_SET',
        { actorId: data.setBy },
        // A set recorded before reasons were asked for has none.
        { from: data.previousBalance, to: data.credits, reason: data.reason ?? null },
      );
    }
    case 'CreditsPurchased': {
      const { data } = event;
      return done(
        'CREDITS_BOUGHT',
        {},
        {
          amount: data.amount,
          amount_pence: data.amountPence,
          payment_intent_id: data.paymentIntentId,
          balance_after: data.balanceAfter,
        },
      );
    }
    case 'CreditsDebited':
    case 'CreditsRefunded': {
      const { data } = event;
      return done(
        event.type === 'CreditsDebited' ? 'CREDITS_SPENT' : 'CREDITS_GIVEN_BACK',
        {},
        {
          amount: data.amount,
          links: data.distributionIds.length,
          distribution_ids: data.distributionIds,
          reference: data.reference,
          balance_after: data.balanceAfter,
        },
      );
    }
    case 'CreditsReversed': {
      const { data } = event;
      return done(
        'CREDITS_TAKEN_BACK',
        {},
        {
          requested: data.requested,
          amount: data.amount,
          reason: data.reason,
          payment_intent_id: data.paymentIntentId,
          reference: data.reference,
          balance_after: data.balanceAfter,
        },
      );
    }
    case 'PaymentDisputed': {
      const { data } = event;
      return done(
        'PAYMENT_DISPUTED',
        {},
        {
          amount_pence: data.amountPence,
          payment_intent_id: data.paymentIntentId,
          dispute_id: data.disputeId,
          reason: data.reason,
        },
      );
    }

    case 'UserBanned':
    case 'UserUnbanned':
      return done(event.type === 'UserBanned' ? 'USER_BANNED' : 'USER_UNBANNED', {
        actorId: event.data.by,
      });
    case 'PasswordResetRequested':
      return done('PASSWORD_RESET_REQUESTED', { actorId: event.data.by });
    case 'PasswordChanged':
      return done('PASSWORD_CHANGED', {}, { reason: event.data.reason });
    case 'SignInFromNewDevice':
      return done('NEW_DEVICE_SIGN_IN', { ip: event.data.ip }, { device: event.data.device });
    case 'SessionsSignedOut':
      return done('SESSIONS_ENDED', {}, { sessions: event.data.count });
    case 'TotpEnabled':
      return done('AUTHENTICATOR_ADDED', {}, { recovery_codes: event.data.recoveryCodeHashes.length });
    case 'TotpDisabled':
      return done('AUTHENTICATOR_REMOVED', {});
    case 'PasskeyAdded': {
      const { data } = event;
      return done(
        'PASSKEY_ADDED',
        { subjectId: data.credentialId },
        {
          passkey_id: data.credentialId,
          name: data.name,
          ...(data.recoveryCodeHashes?.length ? { recovery_codes: data.recoveryCodeHashes.length } : {}),
        },
      );
    }
    case 'PasskeyRemoved':
      return done('PASSKEY_REMOVED', { subjectId: event.data.credentialId }, { passkey_id: event.data.credentialId });
    case 'RecoveryCodeUsed':
      return done('RECOVERY_CODE_USED', {});

    case 'ApiKeyCreated': {
      const { data } = event;
      return done(
        'API_KEY_CREATED',
        { subjectId: data.keyId },
        { key_id: data.keyId, name: data.name, scopes: data.scopes, prefix: data.prefix },
      );
    }
    case 'ApiKeyRevoked':
      return done('API_KEY_REVOKED', { subjectId: event.data.keyId }, { key_id: event.data.keyId });

    case 'WebhookEndpointCreated':
    case 'WebhookEndpointUpdated': {
      const { data } = event;
      return done(
        event.type === 'WebhookEndpointCreated' ? 'WEBHOOK_ADDED' : 'WEBHOOK_CHANGED',
        { subjectId: data.endpointId },
        { endpoint_id: data.endpointId, url: data.url, events: data.events },
      );
    }
    case 'WebhookSecretRolled':
      return done(
        'WEBHOOK_CHANGED',
        { subjectId: event.data.endpointId },
        {
          endpoint_id: event.data.endpointId,
          secret_rolled: true,
          secret_prefix: event.data.secretPrefix,
          // Until when the secret it replaced still signs beside it (null: it stopped at once).
          previous_secret_until: event.data.previousSecretUntil ?? null,
        },
      );
    case 'WebhookEndpointDisabled':
      return done(
        'WEBHOOK_DISABLED',
        { subjectId: event.data.endpointId },
        { endpoint_id: event.data.endpointId, by: event.data.by, reason: event.data.reason },
      );
    case 'WebhookEndpointEnabled':
    case 'WebhookEndpointDeleted':
      return done(
        event.type === 'WebhookEndpointEnabled' ? 'WEBHOOK_ENABLED' : 'WEBHOOK_DELETED',
        { subjectId: event.data.endpointId },
        { endpoint_id: event.data.endpointId },
      );
    default:
      return null;
  }
}

/** The names an event gives (what the entries are read by), in the order it gives them. */
export function auditNamesOf(recorded: RecordedEvent): AuditNameRow[] {
  const event = { type: recorded.type, data: recorded.data } as AuditedEvent;
  switch (event.type) {
    case 'UserRegistered':
      return [{ kind: 'user', id: event.data.userId, name: event.data.email, detail: null }];
    case 'TicketDiscovered':
    case 'TicketChanged': {
      const { pass } = event.data;
      return [{ kind: 'ticket', id: event.data.ticketId, name: pass.title, detail: seatInfoCombined(pass) }];
    }
    case 'TicketDistributed':
      return [{ kind: 'link', id: event.data.distributionId, name: event.data.label ?? null, detail: null }];
    case 'LinkUpdated':
      return [{ kind: 'link', id: event.data.distributionId, name: event.data.settings.label, detail: null }];
    case 'ApiKeyCreated':
      return [{ kind: 'api-key', id: event.data.keyId, name: event.data.name, detail: null }];
    case 'WebhookEndpointCreated':
    case 'WebhookEndpointUpdated':
      return [{ kind: 'webhook', id: event.data.endpointId, name: event.data.url, detail: null }];
    case 'PasskeyAdded':
      return [{ kind: 'passkey', id: event.data.credentialId, name: event.data.name, detail: null }];
    default:
      return [];
  }
}

/** The hour a click time falls in (UTC). */
export function claimHourOf(at: string): Date {
  const hour = new Date(at);
  if (Number.isNaN(hour.getTime())) throw new Error(`Not a click time: ${at.slice(0, 100)}`);
  hour.setUTCMinutes(0, 0, 0);
  return hour;
}

/** What is summed per link and hour: its claims (LinkClicked) and its first opens on a device (LinkOpened). */
const HOURLY = {
  LinkClicked: { prefix: 'claims', eventType: 'LINK_CLAIMED' },
  LinkOpened: { prefix: 'opens', eventType: 'LINK_OPENED' },
} as const satisfies Record<string, { prefix: string; eventType: AuditEventType }>;
type Hourly = keyof typeof HOURLY;

/**
 * The id of the entry of a link's claims (or opens) in an hour: the MD5 of 'claims|<link>|<hour, ISO>' ('opens|…')
 * shaped as a UUID, which the projection's function in the database (audit.routines.ts) derives the same way for claims.
 */
export function claimsEntryId(distributionId: string, hour: Date, prefix: 'claims' | 'opens' = 'claims'): string {
  const hex = createHash('md5').update(`${prefix}|${distributionId.toLowerCase()}|${hour.toISOString()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The entries of a batch's clicks and opens: one per link, hour and kind, with how many, the first (its time) and the
 * last. Written added to the entry already there (audit.routines.ts does the same for clicks in the database).
 */
export function claimRowsOf(events: readonly RecordedEvent[]): AuditRow[] {
  const sums = new Map<string, AuditRow>();
  for (const recorded of events) {
    if (!(recorded.type in HOURLY)) continue;
    const { prefix, eventType } = HOURLY[recorded.type as Hourly];
    const { data } = recorded as unknown as LinkClicked | LinkOpened;
    const hour = claimHourOf(data.at);
    const at = new Date(data.at);
    const id = claimsEntryId(data.distributionId, hour, prefix);
    const sum = sums.get(id);
    if (sum) {
      sum.count = (sum.count ?? 1) + 1;
      if (at < sum.createdAt) sum.createdAt = at;
      if (at > sum.lastAt!) sum.lastAt = at;
      continue;
    }
    sums.set(id, {
      id,
      userId: data.userId,
      createdAt: at,
      kind: 'links',
      eventType,
      status: 'SUCCESS',
      ticketId: data.ticketId,
      distributionId: data.distributionId.toLowerCase(),
      ipAddress: null,
      bulkAction: false,
      actorId: null,
      subjectId: null,
      count: 1,
      lastAt: at,
      eventData: {
        status: 'SUCCESS',
        ticket_id: data.ticketId,
        distribution_id: data.distributionId.toLowerCase(),
        hour: hour.toISOString(),
      },
    });
  }
  return [...sums.values()];
}
