import { useRef, useState } from 'react';
import { PASSWORD_MESSAGES } from '@seatlink/contracts';
import type { PasswordFieldsProps } from './components/password-fields';
import { passwordSubmitError } from './password-rules';

/**
 * A new password and its confirmation (register, reset), for PasswordFields, with the submit-time check: a mismatch
 * is already shown under the confirmation, so it only moves the focus there; an unmet rule becomes the form's error,
 * which goes as soon as the password is edited.
 */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);

  /** True when the password may be sent. */
  const check = (): boolean => {
    const problem = passwordSubmitError(password, confirmation);
    if (problem === PASSWORD_MESSAGES.mismatch) {
      setFormError(null);
      confirmationRef.current?.focus();
    } else {
      setFormError(problem);
    }
    return problem === null;
  };

  const fields = {
    password,
    confirmation,
    onPasswordChange: (value: string) => {
      setPassword(value);
      setFormError(null);
    },
    onConfirmationChange: setConfirmation,
    confirmationRef,
  } satisfies Partial<PasswordFieldsProps>;

  return { password, formError, check, fields };
}
