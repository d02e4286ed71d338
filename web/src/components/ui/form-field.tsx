import { useId, type ComponentProps, type ReactNode } from 'react';
import { cx } from './cx';
import { Input, Label } from './input';

export interface FormFieldProps extends ComponentProps<'input'> {
  label: ReactNode;
  /** Shown in red under the field; marks the input invalid and describes it. */
  error?: string | null;
  /** Help under the field; describes the input. */
  hint?: ReactNode;
  /** Inside the input's right edge (e.g. a show/hide toggle); give the input room with a right padding class. */
  trailing?: ReactNode;
  /** Keeps the label for assistive technology only. */
  hideLabel?: boolean;
  /** Announce the error as it appears (default). Off for a message that follows every keystroke. */
  announceError?: boolean;
  errorTestId?: string;
  containerClassName?: string;
}

/** A label, its input, and the input's error and help text, wired together (ids, aria-invalid, aria-describedby). */
export function FormField({
  label,
  error,
  hint,
  trailing,
  hideLabel,
  announceError = true,
  errorTestId,
  containerClassName,
  id,
  'aria-describedby': describedBy,
  ...inputProps
}: FormFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;

  const input = (
    <Input
      id={inputId}
      aria-invalid={error ? true : undefined}
      aria-describedby={cx(describedBy, error && errorId, hint ? hintId : null) || undefined}
      {...inputProps}
    />
  );

  return (
    <div className={cx('space-y-1', containerClassName)}>
      <Label htmlFor={inputId} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </Label>
      {trailing ? (
        <div className="relative">
          {input}
          {trailing}
        </div>
      ) : (
        input
      )}
      {error ? (
        <p
          id={errorId}
          role={announceError ? 'alert' : undefined}
          className="text-sm text-red-600"
          data-testid={errorTestId}
        >
          {error}
        </p>
      ) : null}
      {hint ? (
        <div id={hintId} className="text-xs text-slate-600">
          {hint}
        </div>
      ) : null}
    </div>
  );
}
