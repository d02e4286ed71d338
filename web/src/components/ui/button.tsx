import type { ComponentProps } from 'react';
import { cx } from './cx';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md';

const variants: Record<Variant, string> = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-indigo-600',
  secondary:
    'bg-white text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-indigo-600',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-indigo-600',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-500 focus-visible:outline-red-600',
};

/**
 * A disabled button keeps legible text: slate-600 on slate-100 is 7:1 (a faded colour button was about 2.7:1). A
 * button that is disabled because it is busy (aria-busy, e.g. 'Signing in...') keeps its colours and shows a wait
 * cursor instead.
 */
const disabledLook = 'cursor-not-allowed bg-slate-100 text-slate-600 ring-1 ring-inset ring-slate-300';

const sizes: Record<Size, string> = {
  sm: 'px-2.5 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
};

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: Variant;
  size?: Size;
}

export function Button({ variant = 'primary', size = 'md', type = 'button', className, ...props }: ButtonProps) {
  const busy = props['aria-busy'] === true || props['aria-busy'] === 'true';
  return (
    <button
      type={type}
      className={cx(
        'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2',
        props.disabled ? (busy ? cx(variants[variant], 'cursor-wait') : disabledLook) : variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
