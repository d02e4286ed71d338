import { useEffect, useState, type FormEvent } from 'react';
import type { StepUpMethod } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { setStepUpHandler } from '../../../lib/step-up';
import { stepUp, stepUpWithPasskey } from '../api/mfa';

interface Asked {
  method: StepUpMethod;
  message: string;
  passkey: boolean;
  resolve: (confirmed: boolean) => void;
}

/**
 * Asks a user to confirm it is them when a call needs it (403 STEP_UP_REQUIRED: setting credits, banning, a password
 * reset, a new invite, adding or removing a second factor, long after signing in): their passkey, a code of their app
 * or a recovery code, or their password when they have no second factor. Confirmed, the call goes again by itself;
 * cancelled, it fails with the server's words.
 */
export function StepUpDialogHost() {
  const [asked, setAsked] = useState<Asked | null>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let pending: Asked | null = null;
    const stop = setStepUpHandler(
      (method, message, passkey) =>
        new Promise<boolean>((resolve) => {
          // A second call asking while the first waits: the first is not confirmed by this dialog (it fails as
          // refused), the second is asked.
          pending?.resolve(false);
          pending = { method, message, passkey, resolve };
          setValue('');
          setError(null);
          setAsked(pending);
        }),
    );
    return () => {
      // Gone (signed out, another page): whoever waits is told no.
      pending?.resolve(false);
      stop();
    };
  }, []);

  if (!asked) return null;
  const close = (confirmed: boolean) => {
    asked.resolve(confirmed);
    setAsked(null);
  };
  const confirm = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
      close(true);
    } catch (err) {
      setError(errorMessage(err, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value || busy) return;
    void confirm(() => stepUp(asked.method === 'password' ? { password: value } : { code: value }));
  };
  const field = {
    totp: { label: 'Authentication code', type: 'text', autoComplete: 'one-time-code' },
    passkey: { label: 'Recovery code', type: 'text', autoComplete: 'one-time-code' },
    password: { label: 'Password', type: 'password', autoComplete: 'current-password' },
  }[asked.method];

  return (
    <Modal
      title="Confirm it is you"
      description={asked.message}
      onClose={() => close(false)}
      size="sm"
      testId="step-up-dialog"
    >
      <form onSubmit={submit} className="mt-2 space-y-3">
        {asked.passkey ? (
          <Button
            className="w-full"
            disabled={busy}
            onClick={() => void confirm(stepUpWithPasskey)}
            data-testid="step-up-passkey"
          >
            Use your passkey
          </Button>
        ) : null}
        <FormField
          id="step-up-value"
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          required={!asked.passkey}
          maxLength={200}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? 'Checking...' : 'Confirm'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
