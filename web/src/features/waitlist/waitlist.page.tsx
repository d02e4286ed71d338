import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { AuthShell } from '../../components/ui/auth-shell';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { getCaptchaToken } from '../../lib/captcha';
import { useRequestForm } from '../../lib/request-form';
import { INVALID_EMAIL_MESSAGE, isValidWaitlistEmail } from './waitlist-email';
import { joinWaitlist } from './api/join-waitlist';
import { WAITLIST_FAILED } from './waitlist-email';

/**
 * /waitlist, 'Register Interest' (docs/reference.md "Registration and waitlist screens"): first name, last name and
 * email address; an address not matching the basic pattern gives 'Please enter a valid email address' and nothing is
 * sent; a captcha token for 'interestRegistration' is made before sending. Success replaces the form.
 */
export function WaitlistPage() {
  const navigate = useNavigate();
  const { loading, error, success, submit: join, clearError } = useRequestForm(joinWaitlist, WAITLIST_FAILED);

  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const busy = loading || submitting;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // Waitlist errors are cleared at each new submit (docs/reference.md "One-call forms").
    clearError();
    if (!isValidWaitlistEmail(email)) {
      setEmailError(INVALID_EMAIL_MESSAGE);
      return;
    }
    setEmailError(null);
    setSubmitting(true);
    try {
      const token = await getCaptchaToken('interestRegistration');
      await join({ email: email.trim(), first_name: firstName.trim(), last_name: lastName.trim(), token });
    } finally {
      setSubmitting(false);
    }
  };

  const backHome = (
    <Button variant="ghost" size="sm" className="-ml-2" onClick={() => void navigate('/')}>
      <span aria-hidden="true">←</span> Back to home
    </Button>
  );

  return (
    <AuthShell
      title="Register Interest"
      subtitle="Registrations are currently closed. Leave your details and we'll let you know when they open."
      top={backHome}
      size="md"
    >
      {success ? (
        <div className="space-y-2 py-4 text-center" data-testid="waitlist-success" role="status">
          <p className="text-lg font-semibold text-slate-900">You&apos;re on the list!</p>
          <p className="text-sm text-slate-600">We&apos;ll notify you when registrations open</p>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={(event) => void submit(event)} data-testid="waitlist-form">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField
              id="waitlist-first-name"
              label="First Name"
              name="first_name"
              autoComplete="given-name"
              required
              value={firstName}
              onChange={(event) => setFirstName(event.target.value)}
            />
            <FormField
              id="waitlist-last-name"
              label="Last Name"
              name="last_name"
              autoComplete="family-name"
              required
              value={lastName}
              onChange={(event) => setLastName(event.target.value)}
            />
          </div>
          <FormField
            id="waitlist-email"
            label="Email Address"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={emailError}
            errorTestId="waitlist-email-error"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(null);
            }}
            onInvalid={(event) => {
              // The browser's own check of an e-mail field: say it in the waitlist's own words instead
              // (docs/reference.md "Form rules").
              if (event.currentTarget.validity.typeMismatch) {
                event.preventDefault();
                clearError();
                setEmailError(INVALID_EMAIL_MESSAGE);
              }
            }}
          />

          {error ? (
            <Alert tone="error" data-testid="waitlist-error">
              {error}
            </Alert>
          ) : null}

          <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
            {busy ? 'Submitting...' : 'Notify Me When Registrations Open'}
          </Button>

          <p className="text-center text-xs text-slate-600">
            By joining the waitlist you agree to receive updates about registrations by e-mail.
          </p>
        </form>
      )}
    </AuthShell>
  );
}
