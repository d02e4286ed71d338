import { Navigate, Outlet } from 'react-router-dom';
import { useSessionStore } from '../../lib/session.store';

/**
 * Admin-only area (docs/reference.md "Routing rules"): any non-admin signed-in user goes to /dashboard. Sits inside
 * ProtectedRoute.
 */
export function AdminRoute() {
  const isAdmin = useSessionStore((s) => s.user?.is_admin === true);
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
