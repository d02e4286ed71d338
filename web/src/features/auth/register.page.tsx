import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { AuthShell, linkClassName } from '../../components/ui/auth-shell';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { getCaptchaToken } from '../../lib/captcha';
import { useRequestForm } from '../../lib/request-form';
import { REGISTRATION_FAILED, REGISTRATION_REDIRECT_MS } from './auth.constants';
import { PasswordFields } from './components/password-fields';
import { register as registerCall } from './api/register';
import { useNewPassword } from './use-new-password';
import { useRedirectWhen } from './use-redirect-when';

/**
 * /register (docs/reference.md "Registration and waitlist screens"): all six fields required, the password rules
 * (docs/reference.md "Password rules"), a captcha token (action 'register') made just before sending; on success the
 * server's message, then /login after 5 s. `?code=` prefills the invite code (the link an invitee is sent).
 */
export function RegisterPage() {
  const [searchParams] = useSearchParams();
  const {
    loading,
    error,
    success,
    message,
    submit: register,
    clearError,
  } = useRequestForm(registerCall, REGISTRATION_FAILED);

  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [inviteCode, setInviteCode] = useState(() => searchParams.get('code')?.trim() ?? '');
  const [submitting, setSubmitting] = useState(false);
  const { password, formError, check, fields } = useNewPassword();
  const busy = loading || submitting;

  useRedirectWhen(success, '/login', REGISTRATION_REDIRECT_MS);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    clearError();
    if (!check()) return;
    setSubmitting(true);
    try {
      const token = await getCaptchaToken('register');
      await register({
        email: email.trim(),
        first_name: firstName.trim(),
        last_name: lastName.trim(),
        password,
        invite_code: inviteCode.trim(),
        token,
      });
    } finally {
      setSubmitting(false);
    }
  };

  const footer = (
    <div className="space-y-2">
      <p>
        Already have an account?{' '}
        <Link to="/login" className={linkClassName}>
          Sign in
        </Link>
      </p>
      <p>
        No invite code?{' '}
        <Link to="/waitlist" className={linkClassName}>
          Join the waitlist
        </Link>
      </p>
    </div>
  );

  if (success) {
    return (
      <AuthShell title="Create your account" size="md" footer={footer}>
        <Alert tone="success" data-testid="register-success">
          <p className="font-medium">{message}</p>
          <p className="mt-1">Redirecting to sign in...</p>
        </Alert>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Create your account" subtitle="Registration is by invitation." size="md" footer={footer}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)} data-testid="register-form">
        <FormField
          id="register-email"
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          disabled={busy}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField
            id="register-first-name"
            label="First Name"
            name="first_name"
            autoComplete="given-name"
            required
            disabled={busy}
            value={firstName}
            onChange={(event) => setFirstName(event.target.value)}
          />
          <FormField
            id="register-last-name"
            label="Last Name"
            name="last_name"
            autoComplete="family-name"
            required
            disabled={busy}
            value={lastName}
            onChange={(event) => setLastName(event.target.value)}
          />
        </div>
        <PasswordFields {...fields} passwordLabel="Password" confirmationLabel="Confirm Password" disabled={busy} />
        <FormField
          id="register-invite-code"
          label="Invite Code"
          name="invite_code"
          autoComplete="off"
          spellCheck={false}
          required
          disabled={busy}
          value={inviteCode}
          onChange={(event) => setInviteCode(event.target.value)}
        />

        {formError ? (
          <Alert tone="error" data-testid="register-form-error">
            {formError}
          </Alert>
        ) : null}
        {error ? (
          <Alert tone="error" data-testid="register-error">
            {error}
          </Alert>
        ) : null}

        <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
          {busy ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
    </AuthShell>
  );
}
