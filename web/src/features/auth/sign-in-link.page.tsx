import { useEffect, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { IDENTITY_MESSAGES } from '@seatlink/contracts';
import { Alert } from '../../components/ui/alert';
import { AuthShell, linkClassName } from '../../components/ui/auth-shell';
import { Button } from '../../components/ui/button';
import { useAuthStore } from './auth.store';
import { SecondFactorForm } from './components/second-factor-form';

/**
 * /sign-in-link?token=: the page of the one-time link e-mailed when a sign-in needed a second proof (too many failed
 * sign-ins on the account). It signs in when the person presses its button — not on load, so a mail scanner that
 * opens links does not use the link up — then goes to /dashboard as a sign-in does. A used or expired link says so.
 */
export function SignInLinkPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const signInWithLink = useAuthStore((s) => s.signInWithLink);
  const clearError = useAuthStore((s) => s.clearError);
  const loading = useAuthStore((s) => s.loading);
  const error = useAuthStore((s) => s.error);
  const mfaToken = useAuthStore((s) => s.mfaToken);

  // An error left over from the sign-in screen does not belong here.
  useEffect(() => {
    clearError();
  }, [clearError]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token || loading) return;
    if (await signInWithLink(token)) void navigate('/dashboard', { replace: true });
  };

  const back = (
    <p className="text-center text-sm">
      <Link to="/login" className={linkClassName}>
        Back to sign in
      </Link>
    </p>
  );

  return (
    <AuthShell title="Sign in with your email link">
      {mfaToken ? (
        <SecondFactorForm />
      ) : token ? (
        <form className="space-y-5" onSubmit={(event) => void submit(event)}>
          <p className="text-sm text-slate-600">Press the button below to finish signing in to Seatlink.</p>
          {error ? (
            <Alert tone="error" data-testid="sign-in-link-error">
              {error.message}
            </Alert>
          ) : null}
          <Button type="submit" className="w-full" disabled={loading} aria-busy={loading}>
            {loading ? 'Signing in...' : 'Sign in'}
          </Button>
          {back}
        </form>
      ) : (
        <div className="space-y-4">
          <Alert tone="error" data-testid="sign-in-link-error">
            {IDENTITY_MESSAGES.signInLinkInvalid}
          </Alert>
          {back}
        </div>
      )}
    </AuthShell>
  );
}
