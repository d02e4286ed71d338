import { z } from 'zod';
import { named, schema, timestampSchema } from './schema.js';

/**
 * The in-app notification centre: what happened to a user's links, accounts and credits while they looked elsewhere.
 * GET /v1/notifications?limit&before → NotificationsResponse, POST /v1/notifications/read → NotificationsReadResponse;
 * `notifications.updated` on the socket says the list changed.
 */
export const NOTIFICATION_KINDS = [
  /** A link was claimed: one notification per link while unread, its `count` the claims since it was made. */
  'link_claimed',
  /** A link reached its click limit. */
  'link_limit_reached',
  /** A live link expires within 24 hours. */
  'link_expiring',
  /** Wrong PINs were tried on a link again and again (PIN_GUESS_ALERT_AT within a window): its `count` says how many. */
  'link_pin_guessed',
  /** A wallet account needs its owner to sign in to it again before it syncs again. */
  'account_reauth',
  /** Credits were added by a card payment. */
  'credits_added',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notifications one page holds at most, and by default. */
export const MAX_NOTIFICATIONS_PAGE = 100;
export const DEFAULT_NOTIFICATIONS_PAGE = 20;
/** Notifications one mark-read request names at most. */
export const MAX_NOTIFICATIONS_READ = 500;
/** A link is said to expire soon this long before it does. */
export const LINK_EXPIRING_WITHIN_MS = 24 * 60 * 60 * 1000;

export const appNotificationSchema = schema(() =>
  named(
    'AppNotification',
    z.object({
      id: z.uuid(),
      kind: z.enum(NOTIFICATION_KINDS),
      /** For link_claimed: the claims it gathers (1 or more); link_pin_guessed: the wrong PINs; 1 otherwise. */
      count: z.int().min(1),
      /** When it first happened, and when it last grew (a new claim on the same link); ISO 8601. */
      created_at: timestampSchema,
      updated_at: timestampSchema,
      read: z.boolean(),
      /** The link's ticket (link kinds): where the dashboard takes the user. */
      ticket_id: z.uuid().nullable(),
      distribution_id: z.uuid().nullable(),
      account_id: z.uuid().nullable(),
      /** What it is about: the ticket's event and the link's label, or the account's e-mail; null when it is gone. */
      subject: z.string().nullable(),
      label: z.string().nullable(),
      /** link_limit_reached: the limit; link_expiring: when it expires; credits_added: credits and the amount paid. */
      max_clicks: z.int().min(1).nullable(),
      expires_at: timestampSchema.nullable(),
      credits: z.int().nullable(),
      amount_pence: z.int().nullable(),
      /** link_claimed: who made the latest claim it gathers (null: not told, or another kind). */
      claimed_by: z.object({ name: z.string().nullable(), device: z.string().nullable() }).nullable(),
    }),
  ),
);
export type AppNotification = z.infer<typeof appNotificationSchema>;

/** GET /v1/notifications: a page of the user's notifications. */
export const notificationsResponseSchema = schema(() =>
  named(
    'NotificationsResponse',
    z.object({
      /** Newest first (by when each last grew). */
      notifications: z.array(appNotificationSchema),
      /** Unread notifications in all (not just this page). */
      unread: z.int().min(0),
      /** The `before` of the next page; null: this is the last. */
      next_before: z.string().nullable(),
    }),
  ),
);
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

export const NOTIFICATION_MESSAGES = {
  before: 'before must be the next_before of the page before',
  noIds: 'Give the ids of the notifications to mark read, or all: true',
  tooMany: `At most ${MAX_NOTIFICATIONS_READ} notifications at once`,
  id: 'Each notification id must be a UUID',
  read: 'Notifications marked as read',
  empty: 'No notifications yet',
  markAllRead: 'Mark all as read',
} as const;

/** A page's `before`: opaque to the client (base64url of when the last one grew and its id). */
const cursorPattern = /^[A-Za-z0-9_-]{1,200}$/;

export const notificationsQuerySchema = schema(() =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(MAX_NOTIFICATIONS_PAGE).default(DEFAULT_NOTIFICATIONS_PAGE),
      before: z.string().regex(cursorPattern, NOTIFICATION_MESSAGES.before).optional(),
    })
    .strict(),
);
export type NotificationsQuery = z.infer<typeof notificationsQuerySchema>;

export const notificationsReadRequestSchema = schema(() =>
  z.union(
    [
      z.strictObject({
        ids: z
          .array(z.uuid({ error: NOTIFICATION_MESSAGES.id }), { error: NOTIFICATION_MESSAGES.noIds })
          .min(1, NOTIFICATION_MESSAGES.noIds)
          .max(MAX_NOTIFICATIONS_READ, NOTIFICATION_MESSAGES.tooMany),
      }),
      z.strictObject({ all: z.literal(true, { error: NOTIFICATION_MESSAGES.noIds }) }),
    ],
    { error: NOTIFICATION_MESSAGES.noIds },
  ),
);
export type NotificationsReadRequest = z.infer<typeof notificationsReadRequestSchema>;

/** POST /v1/notifications/read: done, and the unread notifications left. */
export const notificationsReadResponseSchema = schema(() =>
  named('NotificationsReadResponse', z.object({ message: z.string(), unread: z.int().min(0) })),
);
export type NotificationsReadResponse = z.infer<typeof notificationsReadResponseSchema>;

/** A link's name in a notification: its ticket's event, with the label its owner gave it. */
export function notificationSubject(n: Pick<AppNotification, 'subject' | 'label'>): string {
  const subject = n.subject ?? 'a ticket no longer in your wallets';
  return n.label ? `${subject} (${n.label})` : subject;
}

/**
 * Who claimed, as the owner reads it: "claimed by Sam · iPhone", "claimed on an iPhone" or "claimed by Sam"; null
 * when nothing is known (an `at`, written as the reader writes times, goes between the two: "claimed by Sam · 18:02 ·
 * iPhone").
 */
export function claimantText(
  claimant: { name: string | null; device: string | null } | null | undefined,
  at?: string,
): string | null {
  if (!claimant || (!claimant.name && !claimant.device)) return null;
  const parts = [claimant.name ? `claimed by ${claimant.name}` : 'claimed'];
  if (at) parts.push(at);
  if (claimant.device) parts.push(claimant.device);
  return parts.join(' · ');
}

/** A notification's sentence; `formatDateTime` writes a moment as the reader's dates are written. */
export function notificationText(n: AppNotification, formatDateTime: (iso: string) => string): string {
  const subject = notificationSubject(n);
  switch (n.kind) {
    case 'link_claimed':
      return n.count === 1 ? `New claim on ${subject}` : `${n.count} new claims on ${subject}`;
    case 'link_limit_reached':
      return `The link for ${subject} reached its limit of ${n.max_clicks ?? 0} ${n.max_clicks === 1 ? 'click' : 'clicks'}`;
    case 'link_expiring':
      return `The link for ${subject} expires on ${n.expires_at ? formatDateTime(n.expires_at) : 'soon'}`;
    case 'link_pin_guessed':
      return `${n.count} wrong PINs were tried on the link for ${subject}. Nobody is locked out; if the PIN may have leaked, set a new one with Edit Link.`;
    case 'account_reauth':
      return `The wallet account ${n.subject ?? 'you linked'} needs you to sign in again`;
    case 'credits_added': {
      const credits = n.credits ?? 0;
      const paid = n.amount_pence === null ? '' : ` by your payment of £${(n.amount_pence / 100).toFixed(2)}`;
      return `${credits} ${credits === 1 ? 'credit' : 'credits'} added${paid}`;
    }
  }
}

/** How a user wants to hear of a kind by e-mail: not at all (the default), at once, or in the morning's digest. */
export const NOTIFICATION_EMAIL_MODES = ['off', 'immediate', 'daily'] as const;
export type NotificationEmailMode = (typeof NOTIFICATION_EMAIL_MODES)[number];
/** Per kind of notification, how its e-mail comes. */
export const notificationEmailPreferencesSchema = schema(() => {
  const mode = z.enum(NOTIFICATION_EMAIL_MODES);
  const kinds = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, mode])) as Record<
    NotificationKind,
    typeof mode
  >;
  return named('NotificationEmailPreferences', z.object(kinds));
});
export type NotificationEmailPreferences = z.infer<typeof notificationEmailPreferencesSchema>;

/** GET and PUT /v1/me/notification-preferences. */
export const notificationPreferencesSchema = schema(() =>
  named('NotificationPreferences', z.object({ email: notificationEmailPreferencesSchema })),
);
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** The settings page's words for each kind and mode. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  link_claimed: 'A link is claimed',
  link_limit_reached: 'A link reaches its click limit',
  link_expiring: 'A link expires within 24 hours',
  link_pin_guessed: 'Wrong PINs are tried on a link again and again',
  account_reauth: 'A wallet account needs you to sign in again',
  credits_added: 'Credits are added by a payment',
};
export const NOTIFICATION_EMAIL_MODE_LABELS: Record<NotificationEmailMode, string> = {
  off: 'No e-mail',
  immediate: 'E-mail at once',
  daily: 'Daily digest',
};

export const NOTIFICATION_PREFERENCES_MESSAGES = {
  saved: 'Notification settings saved',
  mode: `Each e-mail setting must be one of: ${NOTIFICATION_EMAIL_MODES.join(', ')}`,
  nothing: 'Give at least one e-mail setting to change',
  unsubscribed: 'You will get no more notification e-mails from Seatlink',
  unsubscribeInvalid: 'This unsubscribe link is not valid',
} as const;

const unknownField = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `Unknown field: ${(issue.keys ?? []).join(', ')}` : undefined,
};

/** PUT /v1/me/notification-preferences: the kinds given change, the others stay as they are. */
export const notificationPreferencesRequestSchema = schema(() => {
  const mode = z.enum(NOTIFICATION_EMAIL_MODES, { error: NOTIFICATION_PREFERENCES_MESSAGES.mode });
  const kinds = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, mode.optional()])) as Record<
    NotificationKind,
    z.ZodOptional<typeof mode>
  >;
  return z.strictObject(
    {
      email: z
        .strictObject(kinds, unknownField)
        .refine((e) => Object.values(e).some((v) => v !== undefined), NOTIFICATION_PREFERENCES_MESSAGES.nothing),
    },
    unknownField,
  );
});
export type NotificationPreferencesRequest = z.infer<typeof notificationPreferencesRequestSchema>;

/** The unsubscribe link's token (?token=): what the e-mail carried. */
export const unsubscribeQuerySchema = schema(() =>
  z.object({
    token: z
      .string({ error: NOTIFICATION_PREFERENCES_MESSAGES.unsubscribeInvalid })
      .regex(/^[A-Za-z0-9_-]{20,100}$/, NOTIFICATION_PREFERENCES_MESSAGES.unsubscribeInvalid),
  }),
);
