import { Navigate, Outlet } from 'react-router-dom';
import { useSessionStore } from '../../lib/session.store';

/**
 * Public screens such as /login: an already authenticated visitor is sent to /dashboard
 * (docs/reference.md "Routing rules").
 */
export function PublicOnlyRoute() {
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
