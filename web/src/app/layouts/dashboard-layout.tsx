import { Outlet } from 'react-router-dom';
import { AppFrame } from './app-frame';

/** Layout of /dashboard and its nested pages. */
export function DashboardLayout() {
  return (
    <AppFrame>
      <Outlet />
    </AppFrame>
  );
}
