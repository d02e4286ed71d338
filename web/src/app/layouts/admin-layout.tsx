import { Outlet } from 'react-router-dom';
import { AdminMfaGate } from '../../features/security/components/admin-mfa-gate';
import { AppFrame } from './app-frame';

/** Layout of the /admin area (its own route subtree, guarded by AdminRoute), in the same frame as the dashboard. */
export function AdminLayout() {
  return (
    <AppFrame>
      <div data-testid="admin-area">
        <AdminMfaGate>
          <Outlet />
        </AdminMfaGate>
      </div>
    </AppFrame>
  );
}
