import { useRef, useState } from 'react';
import { PASSWORD_MESSAGES } from '@seatlink/contracts';
import { passwordSubmitError } from './password-rules';

/**
 * The submit-time check of a new password and its confirmation (register, reset): a mismatch is already shown under
 * the confirmation, so it only moves the focus there; an unmet rule becomes the form's error.
 */
export function usePasswordCheck() {
  const [formError, setFormError] = useState<string | null>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);

  /** True when the password may be sent. */
  const check = (password: string, confirmation: string): boolean => {
    const problem = passwordSubmitError(password, confirmation);
    if (problem === PASSWORD_MESSAGES.mismatch) {
      setFormError(null);
      confirmationRef.current?.focus();
    } else {
      setFormError(problem);
    }
    return problem === null;
  };

  return { formError, setFormError, confirmationRef, check };
}
