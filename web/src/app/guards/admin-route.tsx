import { Navigate, Outlet } from 'react-router-dom';
import { useAuthStore } from '../../features/auth/auth.store';

/** Admin-only area (SPEC.md §2): any non-admin signed-in user goes to /dashboard. Sits inside ProtectedRoute. */
export function AdminRoute() {
  const isAdmin = useAuthStore((s) => s.user?.is_admin === true);
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
