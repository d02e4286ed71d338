import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { toast } from '../../lib/toast';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { AuthShell, linkClassName } from '../../components/ui/auth-shell';
import { Button } from '../../components/ui/button';
import { useRequestForm } from '../../lib/request-form';
import { RESET_REDIRECT_MS } from './auth.constants';
import { PasswordFields } from './components/password-fields';
import { resetPassword } from './api/reset-password';
import { RESET_PASSWORD_FAILED, resetTokenQuery } from './auth.queries';
import { useNewPassword } from './use-new-password';
import { useRedirectWhen } from './use-redirect-when';

export const PASSWORD_RESET_SUCCESS = 'Password reset successfully';

function InvalidResetLink({ message }: { message: string | null }) {
  return (
    <AuthShell title="Invalid Reset Link">
      <div className="space-y-4 text-center" data-testid="reset-invalid">
        <p className="text-sm text-slate-600">{message || 'This password reset link is invalid or has expired.'}</p>
        <Link to="/login" className={`${linkClassName} text-sm`}>
          Request a new reset link
        </Link>
      </div>
    </AuthShell>
  );
}

/**
 * /reset-password?token= (docs/reference.md "Sign-in and password screens"): the token is checked on load; an invalid
 * one shows the 'Invalid Reset Link' screen. The form takes the new password and its confirmation
 * (docs/reference.md "Password rules"); success toasts 'Password reset successfully' and goes to / after 2 s.
 */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const tokenCheck = useQuery({ ...resetTokenQuery(token), enabled: token !== '' });
  const tokenValid = tokenCheck.data?.valid ?? null;
  const { loading, error, success, submit: send } = useRequestForm(resetPassword, RESET_PASSWORD_FAILED);
  const { password, formError, check, fields } = useNewPassword();

  useRedirectWhen(success, '/', RESET_REDIRECT_MS);

  if (!token) return <InvalidResetLink message={null} />;
  if (tokenValid === false) return <InvalidResetLink message={tokenCheck.data?.message ?? null} />;
  if (tokenValid === null) {
    return (
      <AuthShell title="Reset Password">
        <p role="status" className="text-center text-sm text-slate-600" data-testid="reset-validating">
          Checking your reset link...
        </p>
      </AuthShell>
    );
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading || success) return;
    if (!check()) return;
    if (await send({ token, password })) toast.success(PASSWORD_RESET_SUCCESS);
  };

  return (
    <AuthShell title="Reset Password" subtitle="Choose a new password for your account.">
      {success ? (
        <Alert tone="success" data-testid="reset-success">
          Your password has been changed. Redirecting...
        </Alert>
      ) : (
        <form className="space-y-4" onSubmit={(event) => void submit(event)} data-testid="reset-form">
          <PasswordFields
            {...fields}
            passwordLabel="New Password"
            confirmationLabel="Confirm New Password"
            disabled={loading}
          />
          {formError ? (
            <Alert tone="error" data-testid="reset-form-error">
              {formError}
            </Alert>
          ) : null}
          {error ? (
            <Alert tone="error" data-testid="reset-error">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" className="w-full" disabled={loading} aria-busy={loading}>
            {loading ? 'Resetting...' : 'Reset Password'}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
