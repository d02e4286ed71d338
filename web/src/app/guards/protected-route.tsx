import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSessionStore } from '../../lib/session.store';

/**
 * Signed-in area (docs/reference.md "Routing rules"): a visitor goes to /login, replacing the history entry and passing
 * the original location along; while authentication is loading nothing is shown.
 */
export function ProtectedRoute() {
  const loading = useSessionStore((s) => s.loading);
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const location = useLocation();

  if (loading) return null;
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}
