import { useEffect, useState, type FormEvent } from 'react';
import type { StepUpMethod } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { setStepUpHandler } from '../../../lib/step-up';
import { stepUp } from '../api/mfa';

interface Asked {
  method: StepUpMethod;
  message: string;
  resolve: (confirmed: boolean) => void;
}

/**
 * Asks an admin to confirm it is them when a call needs it (403 STEP_UP_REQUIRED: setting credits, banning, a password
 * reset, a new invite, long after signing in): a code of their app (or a recovery code), or their password without
 * one. Confirmed, the call goes again by itself; cancelled, it fails with the server's words.
 */
export function StepUpDialogHost() {
  const [asked, setAsked] = useState<Asked | null>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let pending: Asked | null = null;
    const stop = setStepUpHandler(
      (method, message) =>
        new Promise<boolean>((resolve) => {
          // A second call asking while the first waits: the first is not confirmed by this dialog (it fails as
          // refused), the second is asked.
          pending?.resolve(false);
          pending = { method, message, resolve };
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
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!value || busy) return;
    setBusy(true);
    setError(null);
    try {
      await stepUp(asked.method === 'totp' ? { code: value } : { password: value });
      close(true);
    } catch (err) {
      setError(errorMessage(err, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Confirm it is you"
      description={asked.message}
      onClose={() => close(false)}
      size="sm"
      testId="step-up-dialog"
    >
      <form onSubmit={(e) => void submit(e)} className="mt-2 space-y-3">
        <FormField
          id="step-up-value"
          label={asked.method === 'totp' ? 'Authentication code' : 'Password'}
          type={asked.method === 'totp' ? 'text' : 'password'}
          autoComplete={asked.method === 'totp' ? 'one-time-code' : 'current-password'}
          required
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
