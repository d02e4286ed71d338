import type { FastifyRequest } from 'fastify';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** HttpOnly, SameSite=Lax; Secure everywhere but on localhost (where the dashboard runs over plain HTTP). */
export function sessionCookieOptions(request: FastifyRequest, expires?: Date) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: !LOCAL_HOSTS.has(request.hostname.replace(/:\d+$/, '')),
    ...(expires ? { expires } : {}),
  };
}
