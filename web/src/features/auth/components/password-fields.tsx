import { useId, type Ref } from 'react';
import { checkPassword, PASSWORD_MESSAGES } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';
import { Input, Label } from '../../../components/ui/input';
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
 * A new password and its confirmation (registration and password reset, SPEC.md §5): a live checklist of the rules,
 * the rule message while the password falls short, and 'Passwords do not match' under a differing confirmation.
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
  const passwordId = useId();
  const confirmationId = useId();
  const rulesId = useId();
  const hintId = useId();
  const mismatchId = useId();

  const checks = checkPassword(password);
  const hint = passwordHint(password);
  const mismatch = confirmationMismatch(password, confirmation);

  return (
    <>
      <div className="space-y-1">
        <Label htmlFor={passwordId}>{passwordLabel}</Label>
        <Input
          id={passwordId}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          disabled={disabled}
          aria-invalid={hint ? true : undefined}
          aria-describedby={cx(rulesId, hint && hintId) || undefined}
          value={password}
          onChange={(event) => onPasswordChange(event.target.value)}
        />
        {hint ? (
          <p id={hintId} className="text-sm text-red-600" data-testid="password-hint">
            {hint}
          </p>
        ) : null}
        <ul id={rulesId} className="mt-2 space-y-1 text-xs" data-testid="password-rules" aria-label="Password rules">
          {PASSWORD_RULES.map((rule) => {
            const met = checks[rule.key];
            return (
              <li
                key={rule.key}
                data-testid={`password-rule-${rule.key}`}
                data-met={met}
                className={cx('flex items-center gap-1.5', met ? 'text-green-700' : 'text-slate-500')}
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
      </div>

      <div className="space-y-1">
        <Label htmlFor={confirmationId}>{confirmationLabel}</Label>
        <Input
          ref={confirmationRef}
          id={confirmationId}
          name="confirm_password"
          type="password"
          autoComplete="new-password"
          required
          disabled={disabled}
          aria-invalid={mismatch ? true : undefined}
          aria-describedby={mismatch ? mismatchId : undefined}
          value={confirmation}
          onChange={(event) => onConfirmationChange(event.target.value)}
        />
        {mismatch ? (
          <p id={mismatchId} className="text-sm text-red-600" data-testid="password-mismatch">
            {PASSWORD_MESSAGES.mismatch}
          </p>
        ) : null}
      </div>
    </>
  );
}
