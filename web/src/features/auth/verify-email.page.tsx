import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { AuthShell, linkClassName } from '../../components/ui/auth-shell';
import { VERIFICATION_REDIRECT_MS } from './auth.constants';
import { useRedirectWhen } from './use-redirect-when';
import { useVerifyEmailStore, VERIFICATION_TOKEN_MISSING } from './verify-email.store';

/**
 * /verify-email?token= (SPEC.md §2 "Email verification page"): verifying, then success (to /login after 2 s) or
 * error. Without a token: 'Verification token is missing', and no call.
 */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const status = useVerifyEmailStore((s) => s.status);
  const stateToken = useVerifyEmailStore((s) => s.token);
  const message = useVerifyEmailStore((s) => s.message);
  const error = useVerifyEmailStore((s) => s.error);
  const verify = useVerifyEmailStore((s) => s.verify);
  const missingToken = useVerifyEmailStore((s) => s.missingToken);

  useEffect(() => {
    if (token) void verify(token);
    else missingToken();
  }, [token, verify, missingToken]);

  // Until the effect above has run, the store may still describe another link.
  const current =
    stateToken === (token || null) && status !== 'idle' ? status : token ? 'verifying' : ('error' as const);

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
