import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert';
import { linkClassName } from '../../../components/ui/auth-shell';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { getCaptchaToken } from '../../../lib/captcha';
import { useDrawingFirstScreen } from '../../../lib/first-screen';
import { passkeysSupported } from '../../../lib/webauthn';
import { EMAIL_NOT_VERIFIED, SIGN_IN_LINK_SENT } from '../auth.constants';
import { useAuthStore } from '../auth.store';
import { EmailNotVerifiedNotice } from './email-not-verified-notice';
import { ForgotPasswordModal } from './forgot-password-modal';
import { SecondFactorForm } from './second-factor-form';

/** The sign-in form (docs/reference.md "Sign-in and password screens"). */
export function LoginForm() {
  const navigate = useNavigate();
  const login = useAuthStore((s) => s.login);
  const signInWithPasskey = useAuthStore((s) => s.signInWithPasskey);
  const clearError = useAuthStore((s) => s.clearError);
  const loading = useAuthStore((s) => s.loading);
  const error = useAuthStore((s) => s.error);
  const mfaToken = useAuthStore((s) => s.mfaToken);
  // The build's first screen of this page has the passkey button, as nearly every browser then draws it.
  const offerPasskey = useDrawingFirstScreen() || passkeysSupported();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  // Covers getting the captcha token too, before the store's own loading flag is set.
  const [submitting, setSubmitting] = useState(false);
  const busy = loading || submitting;

  // An error left over from elsewhere (e.g. a failed logout) does not belong on a fresh sign-in screen.
  useEffect(() => {
    clearError();
  }, [clearError]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email || !password || busy) return;
    setSubmitting(true);
    try {
      const token = await getCaptchaToken('login');
      const ok = await login({ email, password, token });
      if (ok) void navigate('/dashboard', { replace: true });
    } finally {
      setSubmitting(false);
    }
  };

  // No e-mail or password: the passkey names its account and verifies the person itself.
  const withPasskey = async () => {
    if (busy) return;
    if (await signInWithPasskey()) void navigate('/dashboard', { replace: true });
  };

  const closeForgot = useCallback(() => setForgotOpen(false), []);

  // The password was right; the account's second factor finishes the sign-in.
  if (mfaToken) return <SecondFactorForm />;

  return (
    <>
      <form className="space-y-5" onSubmit={(event) => void submit(event)}>
        <FormField
          id="login-email"
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />

        {/* In the order a keyboard user needs them: the password, its Show toggle, then the way out if forgotten. */}
        <div className="space-y-2">
          <FormField
            id="login-password"
            label="Password"
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            className="pr-16"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            trailing={
              <button
                type="button"
                className="absolute inset-y-0 right-0 rounded-r-lg px-3 text-sm font-medium text-slate-600 hover:text-slate-900"
                aria-controls="login-password"
                aria-pressed={showPassword}
                onClick={() => setShowPassword((shown) => !shown)}
              >
                {showPassword ? 'Hide' : 'Show'}
              </button>
            }
          />
          <div className="text-right">
            <button
              type="button"
              className="text-sm font-medium text-indigo-600 hover:text-indigo-500"
              onClick={() => setForgotOpen(true)}
            >
              Forgot your password
            </button>
          </div>
        </div>

        {/* The notice resends to the address typed; a passkey's sign-in of an unverified account has none typed. */}
        {error && error.code === EMAIL_NOT_VERIFIED && email ? (
          <EmailNotVerifiedNotice message={error.message} email={email} onDismiss={clearError} />
        ) : error && error.code === SIGN_IN_LINK_SENT ? (
          <Alert tone="info" data-testid="sign-in-link-sent">
            {error.message}
          </Alert>
        ) : error ? (
          <Alert tone="error" data-testid="login-error">
            {error.message}
          </Alert>
        ) : null}

        <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
          {busy ? 'Signing in...' : 'Sign in'}
        </Button>
        {offerPasskey ? (
          <Button
            type="button"
            variant="secondary"
            className="w-full"
            disabled={busy}
            onClick={() => void withPasskey()}
            data-testid="passkey-sign-in"
          >
            Use a passkey
          </Button>
        ) : null}

        <p className="text-center text-sm text-slate-500">
          Don&apos;t have an account?{' '}
          <Link to="/register" className={linkClassName}>
            Register
          </Link>
        </p>
      </form>
      {forgotOpen ? <ForgotPasswordModal onClose={closeForgot} /> : null}
    </>
  );
}
