import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { AuthShell, linkClassName } from '../../components/ui/auth-shell';
import { VERIFICATION_REDIRECT_MS } from './auth.constants';
import { useRedirectWhen } from './use-redirect-when';
import { onceFor, VERIFICATION_TOKEN_MISSING, verificationError, verifyEmailMutation } from './auth.queries';

/**
 * /verify-email?token= (docs/reference.md "Sign-in and password screens"): verifying, then success (to /login
 * after 2 s) or error. Without a token: 'Verification token is missing', and no call. The token is sent once per visit
 * of the page.
 */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const verification = useMutation(verifyEmailMutation);
  const { mutate } = verification;
  const [firstTime] = useState(() => onceFor<string>());
  useEffect(() => {
    if (token && firstTime(token)) mutate(token);
  }, [token, firstTime, mutate]);
  const message = verification.data?.message;
  const error = verification.isError ? verificationError(verification.error) : null;
  const current = !token || verification.isError ? 'error' : verification.isSuccess ? 'success' : 'verifying';

  useRedirectWhen(current === 'success', '/login', VERIFICATION_REDIRECT_MS);

  return (
    <AuthShell title="Email Verification">
      <div data-testid="verify-status" data-state={current}>
        {current === 'success' ? (
          <Alert tone="success">
            <p className="font-medium">{message || 'Email verified successfully'}</p>
            <p className="mt-1">Redirecting to sign in...</p>
          </Alert>
        ) : current === 'error' ? (
          <div className="space-y-4">
            <Alert tone="error">{token ? error : VERIFICATION_TOKEN_MISSING}</Alert>
            <p className="text-center text-sm">
              <Link to="/login" className={linkClassName}>
                Back to sign in
              </Link>
            </p>
          </div>
        ) : (
          <p role="status" className="text-center text-sm text-slate-600">
            Verifying your email...
          </p>
        )}
      </div>
    </AuthShell>
  );
}
