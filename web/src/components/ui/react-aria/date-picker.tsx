import { useContext, useEffect, useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateFieldStateContext,
  DateInput,
  DatePicker as AriaDatePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  Label,
  Popover,
  Text,
  type DateSegmentProps,
  type DateValue,
} from 'react-aria-components';
import { cx } from '../cx';
import { EnGb } from './en-gb';
import { CalendarIcon, ChevronIcon } from '../icons';

export interface DatePickerHandle {
  /** Focuses the field's first part (the day). */
  focus(): void;
}

export interface DatePickerProps<T extends DateValue> {
  label: ReactNode;
  /** Keeps the label for assistive technology only. */
  hideLabel?: boolean;
  value: T | null;
  onChange: (value: T | null) => void;
  /** 'day': a date (dd/mm/yyyy); 'minute' or 'second': a date and a 24-hour time. */
  granularity: 'day' | 'minute' | 'second';
  minValue?: DateValue;
  maxValue?: DateValue;
  /** Where the calendar opens and the time starts while the field is empty. */
  placeholderValue?: T;
  /** Shown in red under the field; marks it invalid and describes it. */
  error?: string | null;
  errorTestId?: string;
  /** Help under the field; describes it. */
  hint?: ReactNode;
  /**
   * Told whether the field holds a date typed in part (some of its parts filled, not all): the value is null then,
   * as it is for an empty field, and a form should say so rather than take it for empty.
   */
  onPartialChange?: (partial: boolean) => void;
  ref?: Ref<DatePickerHandle>;
  className?: string;
  testId?: string;
}

/** One part of the field (day, month, year, hour, minute, second, or a separator); reports a part-typed date. */
function FieldSegment({
  segment,
  onPartialChange,
}: {
  segment: DateSegmentProps['segment'];
  onPartialChange?: (partial: boolean) => void;
}) {
  const state = useContext(DateFieldStateContext);
  const partial = Boolean(
    state && state.value === null && state.segments.some((s) => s.isEditable && !s.isPlaceholder),
  );
  useEffect(() => {
    onPartialChange?.(partial);
  }, [partial, onPartialChange]);
  return (
    <DateSegment
      segment={segment}
      className={cx(
        'rounded tabular-nums outline-none',
        // A part is a touch target: at least 24px each way (WCAG 2.2 target size).
        segment.type === 'literal'
          ? 'px-px text-slate-500'
          : 'inline-block min-w-6 px-0.5 py-0.5 text-center data-placeholder:text-slate-500 focus:bg-indigo-600 focus:text-white focus:data-placeholder:text-white',
      )}
    />
  );
}

const navButton =
  'rounded-lg p-1 text-slate-600 outline-none hover:bg-slate-100 hover:text-slate-900 ' +
  'data-disabled:opacity-40 data-focus-visible:outline-2 data-focus-visible:outline-indigo-600';

/**
 * A date, or a date and time, entered in the app's locale (en-GB, set around it by EnGb: dd/mm/yyyy and a
 * 24-hour clock, whatever the browser's locale): React Aria's DatePicker, whose parts are typed with the keyboard
 * (digits, arrows) or whose date is picked from a calendar. Values are `@internationalized/date` objects without a
 * time zone; the owner reads them in the browser's.
 */
export function DatePicker<T extends DateValue>({
  label,
  hideLabel,
  value,
  onChange,
  granularity,
  minValue,
  maxValue,
  placeholderValue,
  error,
  errorTestId,
  hint,
  onPartialChange,
  ref,
  className,
  testId,
}: DatePickerProps<T>) {
  const rootRef = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({
    focus: () => rootRef.current?.querySelector<HTMLElement>('[role="spinbutton"]')?.focus(),
  }));

  return (
    <EnGb>
      <AriaDatePicker<T>
        ref={rootRef}
        value={value}
        // The value given back is of the kind given (a date, or a date and time), as granularity and value agree.
        onChange={(next) => onChange(next as T | null)}
        granularity={granularity}
        hourCycle={24}
        shouldForceLeadingZeros
        minValue={minValue}
        maxValue={maxValue}
        placeholderValue={placeholderValue}
        isInvalid={error ? true : undefined}
        validationBehavior="aria"
        className={cx('space-y-1', className)}
        data-testid={testId}
      >
        <Label className={cx('block text-sm font-medium text-slate-700', hideLabel && 'sr-only')}>{label}</Label>
        <Group
          className={cx(
            'flex w-full items-center gap-2 rounded-lg bg-white py-1 pr-1 pl-2.5 text-sm text-slate-900 shadow-sm',
            'ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-indigo-600',
            'data-invalid:ring-red-500 data-invalid:focus-within:ring-red-600',
          )}
        >
          <DateInput className="flex min-w-0 flex-1 flex-wrap items-center">
            {(segment) => <FieldSegment segment={segment} onPartialChange={onPartialChange} />}
          </DateInput>
          <Button
            className={cx(navButton, 'shrink-0 data-pressed:bg-slate-200')}
            data-testid={testId ? `${testId}-calendar` : undefined}
          >
            <CalendarIcon />
          </Button>
        </Group>
        {error ? (
          <Text
            slot="errorMessage"
            elementType="p"
            role="alert"
            className="text-sm text-red-600"
            data-testid={errorTestId}
          >
            {error}
          </Text>
        ) : null}
        {hint ? (
          <Text slot="description" elementType="div" className="text-xs text-slate-600">
            {hint}
          </Text>
        ) : null}
        <Popover
          placement="bottom end"
          offset={6}
          containerPadding={8}
          className="rounded-xl border border-slate-200 bg-white p-3 text-slate-900 shadow-lg"
        >
          <Dialog className="outline-none">
            <Calendar<T> className="w-64">
              <header className="mb-2 flex items-center justify-between gap-2">
                <Button slot="previous" className={navButton}>
                  <ChevronIcon className="h-4 w-4 rotate-90" />
                </Button>
                <Heading className="text-sm font-semibold" />
                <Button slot="next" className={navButton}>
                  <ChevronIcon className="h-4 w-4 -rotate-90" />
                </Button>
              </header>
              <CalendarGrid className="w-full border-separate border-spacing-0.5 text-center text-sm">
                {(date) => (
                  <CalendarCell
                    date={date}
                    className={cx(
                      'flex h-8 w-8 cursor-default items-center justify-center rounded-lg tabular-nums outline-none',
                      'hover:bg-slate-100 data-outside-month:hidden data-unavailable:text-slate-300',
                      'data-disabled:text-slate-300 data-disabled:hover:bg-transparent',
                      'data-selected:bg-indigo-600 data-selected:text-white',
                      'data-focus-visible:outline-2 data-focus-visible:outline-indigo-600',
                    )}
                  />
                )}
              </CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </AriaDatePicker>
    </EnGb>
  );
}
