import { Navigate, Outlet } from 'react-router-dom';
import { useAuthStore } from '../../features/auth/auth.store';

/** Public screens such as /login: an already authenticated visitor is sent to /dashboard (SPEC.md §2). */
export function PublicOnlyRoute() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
