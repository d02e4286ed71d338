import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { useAuthStore } from '../auth.store';

/**
 * The second step of a sign-in of an account with a second factor: its passkey, a code of its authenticator app
 * (6 digits), or one of its recovery codes — whichever the account has. A wrong code can be tried again (the
 * account's count allows a few); a sign-in that took too long goes back to the password.
 */
export function SecondFactorForm() {
  const navigate = useNavigate();
  const signInWithSecondFactor = useAuthStore((s) => s.signInWithSecondFactor);
  const signInWithPasskey = useAuthStore((s) => s.signInWithPasskey);
  const cancel = useAuthStore((s) => s.cancelSecondFactor);
  const methods = useAuthStore((s) => s.mfaMethods);
  const loading = useAuthStore((s) => s.loading);
  const error = useAuthStore((s) => s.error);
  const [code, setCode] = useState('');
  const app = methods.includes('totp');
  const passkey = methods.includes('passkey');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim() || loading) return;
    if (await signInWithSecondFactor(code)) void navigate('/dashboard', { replace: true });
  };
  const withPasskey = async () => {
    if (loading) return;
    if (await signInWithPasskey()) void navigate('/dashboard', { replace: true });
  };

  return (
    <form className="space-y-5" onSubmit={(event) => void submit(event)} data-testid="second-factor-form">
      {passkey ? (
        <>
          <p className="text-sm text-slate-600">Confirm it is you with your passkey.</p>
          <Button
            type="button"
            className="w-full"
            disabled={loading}
            onClick={() => void withPasskey()}
            data-testid="second-factor-passkey"
          >
            Use your passkey
          </Button>
        </>
      ) : null}
      <p className="text-sm text-slate-600">
        {app
          ? `${passkey ? 'Or enter' : 'Enter'} the 6-digit code from your authenticator app, or one of your recovery codes.`
          : 'Or enter one of your recovery codes.'}
      </p>
      <FormField
        id="second-factor-code"
        label={app ? 'Authentication code' : 'Recovery code'}
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus={!passkey}
        required
        maxLength={20}
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      {error ? (
        <Alert tone="error" data-testid="second-factor-error">
          {error.message}
        </Alert>
      ) : null}
      <Button
        type="submit"
        variant={passkey ? 'secondary' : 'primary'}
        className="w-full"
        disabled={loading}
        aria-busy={loading}
      >
        {loading ? 'Verifying...' : 'Verify'}
      </Button>
      <p className="text-center text-sm">
        <button type="button" className="font-medium text-indigo-600 hover:text-indigo-500" onClick={cancel}>
          Back to sign in
        </button>
      </p>
    </form>
  );
}
