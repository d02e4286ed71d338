import { useId, type Ref } from 'react';
import { TOPUP_MIN } from '@seatlink/contracts';
import { cx } from '../../../components/ui/cx';
import { FormField } from '../../../components/ui/form-field';
import { AMOUNT_PRESETS, type AmountChoice } from '../top-up';

export interface AmountPickerProps {
  choice: AmountChoice;
  onChange: (choice: AmountChoice) => void;
  disabled?: boolean;
  /** Why the amount is refused, under the custom amount (which it marks invalid). */
  error?: string | null;
  onCustomBlur?: () => void;
  customRef?: Ref<HTMLInputElement>;
}

/**
 * The amount (docs/reference.md "Top Up Credits dialog", "Top-up rules", "Limits and constants"): preset tiles £25,
 * £50, £100, £200 (a radio group) and a custom amount (a number input, minimum 5, step 1: whole pounds, the owner names
 * a refused one). A custom amount leaves the presets unticked; emptied, the last preset counts again.
 */
export function AmountPicker({ choice, onChange, disabled, error, onCustomBlur, customRef }: AmountPickerProps) {
  const name = useId();
  const custom = choice.custom !== '';

  return (
    <fieldset disabled={disabled} className="min-w-0 space-y-3">
      <legend className="text-sm font-semibold text-slate-900">Amount</legend>
      <div className="grid grid-cols-4 gap-2">
        {AMOUNT_PRESETS.map((value) => (
          <label key={value} className="min-w-0">
            <input
              type="radio"
              name={name}
              value={value}
              checked={!custom && choice.preset === value}
              onChange={() => onChange({ preset: value, custom: '' })}
              className="peer sr-only"
              data-testid={`amount-preset-${value}`}
            />
            <span
              className={cx(
                'flex h-11 cursor-pointer items-center justify-center rounded-lg text-sm font-semibold tabular-nums',
                'bg-white text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
                'peer-checked:bg-indigo-600 peer-checked:text-white peer-checked:ring-indigo-600',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600',
                'peer-disabled:cursor-not-allowed',
              )}
            >
              £{value}
            </span>
          </label>
        ))}
      </div>
      <FormField
        label="Custom amount (£)"
        type="number"
        inputMode="numeric"
        min={TOPUP_MIN}
        step={1}
        placeholder={`At least £${TOPUP_MIN}`}
        value={choice.custom}
        onChange={(event) => onChange({ preset: choice.preset, custom: event.target.value })}
        onBlur={onCustomBlur}
        ref={customRef}
        error={error}
        errorTestId="custom-amount-error"
        data-testid="custom-amount"
      />
    </fieldset>
  );
}
