import { useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { useRequestForm } from '../../../lib/request-form';
import { forgotPassword } from '../api/forgot-password';
import { FORGOT_PASSWORD_FAILED } from '../auth.constants';

export const FORGOT_PASSWORD_SUCCESS = 'Password reset instructions have been sent to your email.';

/**
 * 'Reset Password' modal (docs/reference.md "Sign-in and password screens"), backed by the forgot-password slice (a
 * mutation that lives with the modal). Focus starts in the email field and stays in the modal; closing it (Cancel,
 * Escape, the backdrop) drops the slice and returns focus to its opener. Deliberately, Cancel is a plain button that
 * closes the modal, not a submit button that leaves it open.
 */
export function ForgotPasswordModal({ onClose }: { onClose: () => void }) {
  const {
    loading,
    error,
    success,
    submit: sendResetInstructions,
  } = useRequestForm(forgotPassword, FORGOT_PASSWORD_FAILED);
  const [email, setEmail] = useState('');
  const emailRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email || loading) return;
    void sendResetInstructions({ email });
  };

  return (
    <Modal title="Reset Password" onClose={onClose} initialFocusRef={emailRef}>
      <form className="space-y-4" onSubmit={submit} data-testid="forgot-password-form">
        <FormField
          ref={emailRef}
          id="forgot-password-email"
          label="Email address"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
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
