import type { ComponentProps, LabelHTMLAttributes } from 'react';
import { cx } from './cx';

export const inputClassName =
  'block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 ' +
  'placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none ' +
  'disabled:cursor-not-allowed disabled:bg-slate-50';

/** A text input; `ref` is passed through (React 19). */
export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cx(inputClassName, className)} {...props} />;
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cx('block text-sm font-medium text-slate-700', className)} {...props} />;
}
