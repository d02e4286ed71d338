import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { cx } from '../../../components/ui/cx';
import { DatePicker } from '../../../components/ui/date-picker';
import { FormField } from '../../../components/ui/form-field';
import { parseLocalDateTime } from '../../../lib/local-date-time';
import { AUDIT_TEXT_DEBOUNCE_MS } from '../audit-filters';

/**
 * A list of checkboxes: the values ticked are the filter (none ticked: every value). Options of a `group` (the event
 * types' kinds) go under its heading; a long list scrolls inside the panel.
 */
export function CheckboxFilter<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: ReadonlyArray<{ value: T; label: string; group?: string }>;
  value: readonly T[];
  onChange: (value: T[]) => void;
}) {
  const toggle = (option: T, on: boolean) =>
    onChange(options.map((o) => o.value).filter((v) => (v === option ? on : value.includes(v))));
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-semibold text-slate-900">{legend}</legend>
      <div className="max-h-[min(24rem,60vh)] space-y-2 overflow-y-auto pr-1">
        {options.map((option, i) => (
          <div key={option.value}>
            {option.group && option.group !== options[i - 1]?.group ? (
              <p
                className={cx('mb-1.5 text-xs font-semibold text-slate-600 uppercase', i > 0 && 'mt-3')}
                aria-hidden="true"
              >
                {option.group}
              </p>
            ) : null}
            <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={value.includes(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
                className="h-4 w-4 rounded border-slate-300 accent-indigo-600"
              />
              {option.label}
            </label>
          </div>
        ))}
      </div>
      <p className="text-xs text-slate-600">None ticked shows all.</p>
    </fieldset>
  );
}

/**
 * A text filter (ticket id, distribution id, IP address): matches what a value starts with, and applies 300 ms after
 * the last keystroke (docs/reference.md "Admin form rules"). The field shows what is typed at once; a change from
 * outside (a chip removed, Clear all) replaces it.
 */
export function TextFilter({
  label,
  value,
  onCommit,
  placeholder,
}: {
  label: string;
  value: string;
  onCommit: (value: string) => void;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  const timer = useRef<number | undefined>(undefined);
  const commitRef = useRef(onCommit);
  useEffect(() => {
    commitRef.current = onCommit;
  }, [onCommit]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const hintId = useId();

  return (
    <div className="space-y-2">
      <FormField
        label={label}
        value={draft}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          const next = event.target.value;
          setDraft(next);
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => commitRef.current(next), AUDIT_TEXT_DEBOUNCE_MS);
        }}
        aria-describedby={hintId}
      />
      <p id={hintId} className="text-xs text-slate-600">
        Shows entries whose value starts with this.
      </p>
      {draft ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            window.clearTimeout(timer.current);
            setDraft('');
            onCommit('');
          }}
        >
          Clear
        </Button>
      ) : null}
    </div>
  );
}

/**
 * From and To of the Event Time filter (docs/reference.md "Admin form rules"), each a date and 24-hour time picked
 * en-GB; picking one makes the range custom. Emptied, a bound is open.
 */
export function DateRangeFilter({
  startDate,
  endDate,
  onChange,
}: {
  startDate: string;
  endDate: string;
  onChange: (field: 'startDate' | 'endDate', value: string) => void;
}) {
  const start = parseLocalDateTime(startDate);
  const end = parseLocalDateTime(endDate);
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-sm font-semibold text-slate-900">Event Time</legend>
      <DatePicker
        label="From"
        granularity="minute"
        value={start}
        maxValue={end ?? undefined}
        onChange={(value) => onChange('startDate', value?.toString() ?? '')}
        testId="event-time-from"
      />
      <DatePicker
        label="To"
        granularity="minute"
        value={end}
        minValue={start ?? undefined}
        onChange={(value) => onChange('endDate', value?.toString() ?? '')}
        testId="event-time-to"
      />
      <p className="text-xs text-slate-600">Quick ranges are above the table.</p>
    </fieldset>
  );
}
