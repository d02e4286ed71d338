import { useCallback, useState } from 'react';
import { toast } from '../../lib/toast';
import { useNavigate } from 'react-router-dom';
import { useAuthStore } from './auth.store';

/** Logout with its toasts (docs/reference.md "Session states"); after logout the visitor goes to /login. */
export function useLogout() {
  const logout = useAuthStore((s) => s.logout);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const run = useCallback(async () => {
    setBusy(true);
    const ok = await logout();
    setBusy(false);
    if (ok) {
      toast.success('Successfully logged out');
      void navigate('/login', { replace: true });
    } else {
      toast.error('Failed to logout. Please try again.');
    }
  }, [logout, navigate]);

  return { logout: run, busy };
}
