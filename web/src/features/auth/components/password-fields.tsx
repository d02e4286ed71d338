import type { Ref } from 'react';
import { checkPassword, PASSWORD_MESSAGES } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';
import { FormField } from '../../../components/ui/form-field';
import { confirmationMismatch, PASSWORD_RULES, passwordHint } from '../password-rules';

export interface PasswordFieldsProps {
  password: string;
  confirmation: string;
  onPasswordChange(value: string): void;
  onConfirmationChange(value: string): void;
  passwordLabel: string;
  confirmationLabel: string;
  disabled?: boolean;
  confirmationRef?: Ref<HTMLInputElement>;
}

/**
 * A new password and its confirmation (registration and password reset, docs/reference.md "Password rules"): a live
 * checklist of the rules, the rule message while the password falls short, and 'Passwords do not match' under a
 * differing confirmation.
 */
export function PasswordFields({
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  passwordLabel,
  confirmationLabel,
  disabled,
  confirmationRef,
}: PasswordFieldsProps) {
  const checks = checkPassword(password);
  const hint = passwordHint(password);
  const mismatch = confirmationMismatch(password, confirmation);

  return (
    <>
      <FormField
        label={passwordLabel}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        disabled={disabled}
        value={password}
        onChange={(event) => onPasswordChange(event.target.value)}
        // Follows every keystroke, so it is not announced as an alert; the checklist below says the same per rule.
        error={hint}
        announceError={false}
        errorTestId="password-hint"
        hint={
          <ul className="mt-1 space-y-1 text-xs" data-testid="password-rules" aria-label="Password rules">
            {PASSWORD_RULES.map((rule) => {
              const met = checks[rule.key];
              return (
                <li
                  key={rule.key}
                  data-testid={`password-rule-${rule.key}`}
                  data-met={met}
                  className={cx('flex items-center gap-1.5', met ? 'text-green-700' : 'text-slate-600')}
                >
                  <span aria-hidden="true" className="inline-block w-3 text-center">
                    {met ? '✓' : '•'}
                  </span>
                  <span>{rule.label}</span>
                  <span className="sr-only">{met ? '(met)' : '(not met)'}</span>
                </li>
              );
            })}
          </ul>
        }
      />

      <FormField
        ref={confirmationRef}
        label={confirmationLabel}
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        required
        disabled={disabled}
        value={confirmation}
        onChange={(event) => onConfirmationChange(event.target.value)}
        error={mismatch ? PASSWORD_MESSAGES.mismatch : null}
        announceError={false}
        errorTestId="password-mismatch"
      />
    </>
  );
}
