import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { ApiKeyScope, User } from '@seatlink/contracts';

export const IS_PUBLIC = 'seatlink:public';
export const IS_ADMIN_ONLY = 'seatlink:admin-only';

/** Open to visitors: no session needed. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
/** Only for users with is_admin. */
export const AdminOnly = () => SetMetadata(IS_ADMIN_ONLY, true);
export const NEEDS_STEP_UP = 'seatlink:needs-step-up';
/** Needs the user to have signed in, or confirmed it is them, within STEP_UP_WINDOW_MS (else 403 STEP_UP_REQUIRED). */
export const StepUp = () => SetMetadata(NEEDS_STEP_UP, true);

export const API_KEY_SCOPE = 'seatlink:api-key-scope';
/**
 * Open to API keys (`Authorization: Bearer sl_live_…`) that have this scope, besides signed-in sessions. A route
 * without it answers a key 403: admin calls, and the cookie-only flows (settings, top-up, making keys).
 */
export const ApiKeyScoped = (scope: ApiKeyScope) => SetMetadata(API_KEY_SCOPE, scope);

export interface AuthenticatedRequest {
  user?: User;
  sessionTokenHash?: string;
  /** The API key the call was made with (none for a session). */
  apiKey?: { id: string; name: string };
  ip: string;
  cookies: Record<string, string | undefined>;
  headers: Record<string, string | string[] | undefined>;
}

/** The signed-in user of the request. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<AuthenticatedRequest>().user,
);

/** The caller's IP address. */
export const ClientIp = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<AuthenticatedRequest>().ip,
);

/** The id of the session the request came with (its token's hash): a signed-in route only. */
export const CurrentSession = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<AuthenticatedRequest>().sessionTokenHash,
);
