import { useState } from 'react';
import { toast } from '../../../lib/toast';
import type { User } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useSessionStore } from '../../../lib/session.store';
import { useResetPassword, useToggleBan } from '../use-admin-users';

/**
 * Per-user actions of the admin users page (docs/reference.md "Admin screens"): reset password by e-mail, and ban or
 * unban. A ban is asked about first (it signs the user out at once); unbanning is not. They live inside a clickable
 * row, so they stop clicks. An admin cannot ban their own account from here.
 */
export function UserActions({ user }: { user: User }) {
  const resetPassword = useResetPassword();
  const toggleBan = useToggleBan();
  const isSelf = useSessionStore((s) => s.user?.id === user.id);
  const [busy, setBusy] = useState<'reset' | 'ban' | null>(null);
  const [confirmingBan, setConfirmingBan] = useState(false);

  const sendReset = async () => {
    setBusy('reset');
    const result = await resetPassword(user.id);
    setBusy(null);
    if (result.ok) toast.success(result.message || 'Password reset email sent');
    else toast.error('Failed to send password reset email');
  };

  const switchBan = async () => {
    setConfirmingBan(false);
    setBusy('ban');
    const result = await toggleBan(user.id);
    setBusy(null);
    if (result.ok) toast.success(result.user.is_banned ? 'User has been banned' : 'User has been unbanned');
    else toast.error(result.message);
  };

  return (
    <div
      className="flex items-center gap-2"
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
      data-testid="user-actions"
    >
      <Button
        size="sm"
        variant="secondary"
        disabled={busy !== null}
        aria-busy={busy === 'reset'}
        title={`E-mail ${user.email} a password reset link`}
        onClick={() => void sendReset()}
      >
        Reset password
      </Button>
      <Button
        size="sm"
        variant={user.is_banned ? 'secondary' : 'danger'}
        className="min-w-16"
        disabled={busy !== null || isSelf}
        aria-busy={busy === 'ban'}
        title={isSelf ? 'You cannot ban your own account' : undefined}
        onClick={() => (user.is_banned ? void switchBan() : setConfirmingBan(true))}
      >
        {user.is_banned ? 'Unban' : 'Ban'}
      </Button>
      {confirmingBan ? (
        <ConfirmDialog
          title="Ban this user?"
          message={
            <>
              <span className="font-medium text-slate-900">{user.email}</span> will be signed out at once and cannot
              sign in until unbanned.
            </>
          }
          confirmLabel="Ban user"
          onConfirm={() => void switchBan()}
          onCancel={() => setConfirmingBan(false)}
        />
      ) : null}
    </div>
  );
}
