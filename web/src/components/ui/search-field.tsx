import type { ComponentProps } from 'react';
import { cx } from './cx';
import { SearchIcon } from './icons';
import { Input } from './input';

export interface SearchFieldProps extends Omit<ComponentProps<'input'>, 'type' | 'className'> {
  id: string;
  /** For assistive technology only: the placeholder shows what it searches. */
  label: string;
  containerClassName?: string;
}

/** A search box with its magnifier, as the lists of the app filter by text. */
export function SearchField({ id, label, containerClassName, ...props }: SearchFieldProps) {
  return (
    <div className={cx('relative', containerClassName)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-500" />
      <Input id={id} type="search" className="pl-9" autoComplete="off" {...props} />
    </div>
  );
}
