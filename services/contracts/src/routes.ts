/**
 * The HTTP calls that the web app makes (docs/reference.md "API calls"), each defined once: its method and its path.
 * Path parameters are written `:name` (the NestJS / path-to-regexp style) and filled in by {@link buildPath}, which
 * encodes them.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRoute<P extends string = string> {
  readonly method: HttpMethod;
  readonly path: P;
}

export const routes = {
  // Authentication (docs/reference.md "API calls")
  login: { method: 'POST', path: '/v1/auth' },
  logout: { method: 'POST', path: '/v1/logout' },
  me: { method: 'GET', path: '/v1/me' },
  /** Whether anyone is signed in (the status check at start): 200 with the user or null, never 401. */
  session: { method: 'GET', path: '/v1/session' },
  forgotPassword: { method: 'POST', path: '/v1/forgot-password' },
  validateResetToken: { method: 'POST', path: '/v1/auth/validate-reset-token' },
  resetPassword: { method: 'POST', path: '/v1/auth/reset-password' },
  register: { method: 'POST', path: '/v1/auth/register' },
  resendVerification: { method: 'POST', path: '/v1/auth/resend-verification' },
  verifyEmail: { method: 'POST', path: '/v1/auth/verify-email' },
  /** Signs in with the one-time link e-mailed when an account's sign-ins needed a second proof. */
  signInWithLink: { method: 'POST', path: '/v1/auth/sign-in-link' },
  /** Completes a sign-in that answered 401 MFA_REQUIRED: MfaSignInRequest → LoginResponse. */
  signInMfa: { method: 'POST', path: '/v1/auth/mfa' },
  joinWaitlist: { method: 'POST', path: '/v1/waitlist' },
  // The signed-in user's second factor (mfa.ts)
  mfaStatus: { method: 'GET', path: '/v1/me/mfa' },
  /** The user's signed-in sessions; sign one out, or every other (sessions.ts). */
  listSessions: { method: 'GET', path: '/v1/me/sessions' },
  endSession: { method: 'DELETE', path: '/v1/me/sessions/:id' },
  endOtherSessions: { method: 'DELETE', path: '/v1/me/sessions' },
  enrolTotp: { method: 'POST', path: '/v1/me/mfa/totp' },
  confirmTotp: { method: 'POST', path: '/v1/me/mfa/totp/confirm' },
  disableTotp: { method: 'POST', path: '/v1/me/mfa/totp/disable' },
  /** The user's passkeys (passkeys.ts): list, the options to add one, add, remove. */
  listPasskeys: { method: 'GET', path: '/v1/me/passkeys' },
  passkeyRegistrationOptions: { method: 'POST', path: '/v1/me/passkeys/options' },
  addPasskey: { method: 'POST', path: '/v1/me/passkeys' },
  removePasskey: { method: 'DELETE', path: '/v1/me/passkeys/:id' },
  /** Signs in with a passkey: the options, then the browser's answer (with an mfa_token: as the second factor). */
  passkeySignInOptions: { method: 'POST', path: '/v1/auth/passkey/options' },
  signInWithPasskey: { method: 'POST', path: '/v1/auth/passkey' },
  /** The user's API keys (api-keys.ts): list, make (the key shown once), revoke. */
  listApiKeys: { method: 'GET', path: '/v1/me/api-keys' },
  createApiKey: { method: 'POST', path: '/v1/me/api-keys' },
  revokeApiKey: { method: 'DELETE', path: '/v1/me/api-keys/:id' },
  /** The user's webhook endpoints (webhooks.ts): list, add (the secret shown once), change, delete, roll the secret;
   * each endpoint's delivery log, a delivery sent again, a test event. */
  listWebhooks: { method: 'GET', path: '/v1/me/webhooks' },
  createWebhook: { method: 'POST', path: '/v1/me/webhooks' },
  updateWebhook: { method: 'PATCH', path: '/v1/me/webhooks/:id' },
  deleteWebhook: { method: 'DELETE', path: '/v1/me/webhooks/:id' },
  rollWebhookSecret: { method: 'POST', path: '/v1/me/webhooks/:id/secret' },
  listWebhookDeliveries: { method: 'GET', path: '/v1/me/webhooks/:id/deliveries' },
  resendWebhookDelivery: { method: 'POST', path: '/v1/me/webhooks/:id/deliveries/:deliveryId/resend' },
  sendWebhookTest: { method: 'POST', path: '/v1/me/webhooks/:id/test' },
  /** Confirms it is the user with a passkey: the options, then the browser's answer. */
  stepUpPasskeyOptions: { method: 'POST', path: '/v1/me/step-up/passkey/options' },
  stepUpWithPasskey: { method: 'POST', path: '/v1/me/step-up/passkey' },
  /** Confirms it is the user (a code, or the password) before a call that needs it (403 STEP_UP_REQUIRED). */
  stepUp: { method: 'POST', path: '/v1/me/step-up' },
  /** What the browser needs at run time (captcha site key; docs/reference.md "API calls"). */
  publicConfig: { method: 'GET', path: '/v1/config' },

  // Admin: users (query: page, limit)
  adminListUsers: { method: 'GET', path: '/v1/admin/users' },
  adminResetUserPassword: { method: 'POST', path: '/v1/admin/users/:id/reset-password' },
  adminToggleUserBan: { method: 'POST', path: '/v1/admin/users/:id/toggle-ban' },
  adminSetUserCredits: { method: 'PUT', path: '/v1/admin/users/:id/credits' },
  /** A user's audit log (query: auditQuerySchema, event_type and status repeated). */
  adminUserAudits: { method: 'GET', path: '/v1/admin/users/:id/audits' },
  /** The same filtered view, every entry, as a CSV download. */
  adminUserAuditsCsv: { method: 'GET', path: '/v1/admin/users/:id/audits.csv' },
  /** The user's balance, accounts, tickets and links as they stood at a moment (query: at, ISO). */
  adminUserHistory: { method: 'GET', path: '/v1/admin/users/:id/history' },

  // Admin: invite codes
  adminListInvites: { method: 'GET', path: '/v1/admin/invites' },
  adminCreateInvite: { method: 'POST', path: '/v1/admin/invites' },
  /** Addressed by the code value, not the id (docs/reference.md "API calls"). */
  adminDisableInvite: { method: 'POST', path: '/v1/admin/invites/:code/disable' },
  adminDeleteInvite: { method: 'DELETE', path: '/v1/admin/invites/:id' },

  // Linked wallet accounts (docs/reference.md "API calls")
  listAccounts: { method: 'GET', path: '/v1/accounts' },
  linkAccount: { method: 'POST', path: '/v1/accounts' },
  /** 1 to MAX_BATCH_ACCOUNTS accounts; each is linked or refused on its own. */
  linkAccountsBatch: { method: 'POST', path: '/v1/accounts/batch' },
  reauthAccount: { method: 'POST', path: '/v1/accounts/:id/reauth' },
  deleteAccount: { method: 'DELETE', path: '/v1/accounts/:id' },
  /** Its first path, without v1 (`/accounts/:id/tickets`), still answers: deprecated. */
  accountTickets: { method: 'GET', path: '/v1/accounts/:id/tickets' },

  // Tickets (docs/reference.md "API calls")
  listTickets: { method: 'GET', path: '/v1/tickets' },
  /** Body: distributeRequestSchema; send an Idempotency-Key. */
  distributeTickets: { method: 'POST', path: '/v1/tickets/distribute' },
  /** No body (docs/reference.md "API calls"). */
  recallDistribution: { method: 'POST', path: '/v1/distributions/:id/recall' },
  /** A live link's expiry, click limit and label (UpdateDistributionRequest → UpdateDistributionResponse). */
  updateDistribution: { method: 'PATCH', path: '/v1/distributions/:id' },
  /** Many links at once: BulkRecallRequest → BulkRecallResponse, BulkUpdateRequest → BulkUpdateResponse. */
  recallDistributions: { method: 'POST', path: '/v1/distributions/recall' },
  updateDistributions: { method: 'PATCH', path: '/v1/distributions' },
  /** The user's links as CSV (a download). */
  exportLinks: { method: 'GET', path: '/v1/links/export.csv' },
  /** Opens and claims of the user's links by day, the links opened and not claimed, those expiring unclaimed. */
  linkActivity: { method: 'GET', path: '/v1/links/activity' },
  /** A link's counted clicks per minute (ClickTimelineResponse). */
  distributionClicks: { method: 'GET', path: '/v1/distributions/:id/clicks' },

  // Notifications: the bell's list (query: limit, before) and marking them read
  listNotifications: { method: 'GET', path: '/v1/notifications' },
  readNotifications: { method: 'POST', path: '/v1/notifications/read' },
  /** Which notifications come by e-mail, and how (NotificationPreferences). */
  notificationPreferences: { method: 'GET', path: '/v1/me/notification-preferences' },
  setNotificationPreferences: { method: 'PUT', path: '/v1/me/notification-preferences' },

  // Public links: what a recipient sees, and the claim that counts a click
  viewLink: { method: 'GET', path: '/v1/links/:code' },
  claimLink: { method: 'POST', path: '/v1/links/:code/claim' },
  /** The recipient page was opened (once per load): LinkOpenRequest → 204, counted once per device. */
  openLink: { method: 'POST', path: '/v1/links/:code/opens' },

  // Card top-ups (docs/reference.md "API calls"); send an Idempotency-Key
  topup: { method: 'POST', path: '/v1/topup' },
  /** After the browser confirmed a payment (3-D Secure): the server asks the provider and credits what succeeded. */
  completeTopup: { method: 'POST', path: '/v1/topup/:id/complete' },
  /** Which card field the browser shows (PaymentsConfig). */
  paymentsConfig: { method: 'GET', path: '/v1/payments/config' },
  /** The test gateway's 3-D Secure step (test mode only). */
  testAuthenticatePayment: { method: 'POST', path: '/v1/payments/test/intents/:id/authenticate' },

  // Admin: accounts, tickets and duplicates
  adminListAccounts: { method: 'GET', path: '/v1/admin/accounts' },
  adminListTickets: { method: 'GET', path: '/v1/admin/tickets' },
  adminDuplicateTickets: { method: 'GET', path: '/v1/admin/tickets/duplicates' },
} as const satisfies Record<string, ApiRoute>;

export type RouteName = keyof typeof routes;

/** The names of the `:name` parameters in a path: `'/a/:id/b/:code'` → `'id' | 'code'`. */
export type PathParamName<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a path needs: an object with one string per parameter, or nothing for a path without any. */
export type PathParams<P extends string> = [PathParamName<P>] extends [never]
  ? Record<string, never>
  : Record<PathParamName<P>, string>;

/** Fills the `:name` parameters of `path`, URI-encoding each value: buildPath('/u/:id', { id: 'a b' }) → '/u/a%20b'. */
export function buildPath<P extends string>(path: P, params: PathParams<P>): string {
  const values = params as Record<string, string>;
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(value);
  });
}
