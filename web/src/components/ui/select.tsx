import { useId, type ComponentProps, type ReactNode } from 'react';
import { cx } from './cx';
import { inputClassName, Label } from './input';

export interface SelectFieldProps extends ComponentProps<'select'> {
  label: ReactNode;
  /** Keeps the label for assistive technology only. */
  hideLabel?: boolean;
  containerClassName?: string;
}

/** A labelled native select (keyboard, screen readers and phones handle it natively). */
export function SelectField({
  label,
  hideLabel,
  containerClassName,
  id,
  className,
  children,
  ...props
}: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={cx('space-y-1', containerClassName)}>
      <Label htmlFor={selectId} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </Label>
      <select id={selectId} className={cx(inputClassName, 'pr-8', className)} {...props}>
        {children}
      </select>
    </div>
  );
}
