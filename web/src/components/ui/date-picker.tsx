import { Suspense, type ComponentType } from 'react';
import type { DateValue } from 'react-aria-components';
import { cx } from './cx';
import type { DatePicker as AriaDatePickerType, DatePickerProps } from './react-aria/date-picker';
import { lazyChunk } from '../../lib/chunk-loader';

export type { DatePickerHandle, DatePickerProps } from './react-aria/date-picker';

// lazy() forgets the picker's type parameter; it is the same component.
const AriaDatePicker = lazyChunk(
  () => import('./react-aria/date-picker'),
  (m) => m.DatePicker as ComponentType<DatePickerProps<DateValue>>,
) as unknown as typeof AriaDatePickerType;

/** What shows while the picker's code loads: its label and an empty field of the same size. */
function Placeholder({
  label,
  hideLabel,
  className,
}: Pick<DatePickerProps<DateValue>, 'label' | 'hideLabel' | 'className'>) {
  return (
    <div className={cx('space-y-1', className)} aria-hidden="true">
      <span className={cx('block text-sm font-medium text-slate-700', hideLabel && 'sr-only')}>{label}</span>
      <div className="h-9 rounded-lg bg-white shadow-sm ring-1 ring-slate-300 ring-inset" />
    </div>
  );
}

/**
 * A date, or a date and a 24-hour time, entered en-GB (React Aria's DatePicker, see react-aria/date-picker.tsx). Its
 * code is a chunk of its own, off the first load of a page.
 */
export function DatePicker<T extends DateValue>(props: DatePickerProps<T>) {
  return (
    <Suspense fallback={<Placeholder label={props.label} hideLabel={props.hideLabel} className={props.className} />}>
      <AriaDatePicker<T> {...props} />
    </Suspense>
  );
}
