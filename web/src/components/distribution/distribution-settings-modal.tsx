import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import {
  DISTRIBUTION_TEXTS,
  distributionSubtitle,
  EMPTY_SETTINGS_DRAFT,
  maxExpiryValue,
  minExpiryValue,
  usageHelper,
  validateDistributionSettings,
  type DistributionSettings,
  type DistributionSettingsDraft,
  type DistributionSettingsErrors,
} from '../../lib/distribution';
import { formatCredits } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { DatePicker, type DatePickerHandle } from '../ui/date-picker';
import { FormField } from '../ui/form-field';
import { Modal } from '../ui/modal';
import { Switch } from '../ui/switch';

export interface DistributionSettingsModalProps {
  /** Tickets the links are for. */
  count: number;
  /** What they cost and what the user has, shown beside the balance warning. */
  cost?: number;
  balance?: number;
  /** The checked settings: expiryDate (ISO or null) and maxClicks (null or a whole number). The owner closes. */
  onSubmit: (settings: DistributionSettings) => void;
  onClose: () => void;
}

/**
 * The Distribution Settings modal (SPEC.md §2): an optional link expiry (a date and 24-hour time picked en-GB, at
 * least an hour ahead, with a Clear button) and a usage limit ('Unlimited access' on by default; off, a whole number of clicks). The fields are
 * checked before anything is sent; a mistake is named under its field, which gets the focus.
 */
export function DistributionSettingsModal({ count, cost, balance, onSubmit, onClose }: DistributionSettingsModalProps) {
  const [draft, setDraft] = useState<DistributionSettingsDraft>(EMPTY_SETTINGS_DRAFT);
  const [errors, setErrors] = useState<DistributionSettingsErrors>({});
  const now = useNow(30_000);
  const expiryRef = useRef<DatePickerHandle>(null);
  const clicksRef = useRef<HTMLInputElement>(null);
  const usageHelperId = useId();
  // Clear starts the expiry field afresh (a date typed in part is no value to set to null).
  const [expiryField, setExpiryField] = useState(0);

  const update = (patch: Partial<DistributionSettingsDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    // A field that changes drops its old complaint; the next submit checks again.
    setErrors((current) => {
      const next = { ...current };
      if ('expiry' in patch || 'expiryPartial' in patch) delete next.expiry;
      if ('maxClicks' in patch || 'unlimited' in patch) delete next.maxClicks;
      return next;
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validateDistributionSettings(draft, Date.now());
    if (!checked.ok) {
      setErrors(checked.errors);
      (checked.errors.expiry ? expiryRef : clicksRef).current?.focus();
      return;
    }
    onSubmit(checked.value);
  };
  const onExpiryPartial = useCallback(
    (expiryPartial: boolean) => setDraft((current) => ({ ...current, expiryPartial })),
    [],
  );

  const helper = usageHelper(draft);

  return (
    <Modal
      title="Distribution Settings"
      description={distributionSubtitle(count)}
      onClose={onClose}
      testId="distribution-settings"
    >
      <form noValidate onSubmit={submit} className="space-y-5">
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">Link Expiration</legend>
          <div className="flex items-start gap-2">
            <DatePicker
              key={expiryField}
              ref={expiryRef}
              label="Expiry date and time"
              hideLabel
              granularity="minute"
              value={draft.expiry}
              onChange={(expiry) => update({ expiry })}
              onPartialChange={onExpiryPartial}
              minValue={minExpiryValue(now)}
              maxValue={maxExpiryValue(now)}
              placeholderValue={minExpiryValue(now)}
              error={errors.expiry}
              errorTestId="expiry-error"
              hint="Optional. If not set, the link will not expire based on time."
              className="min-w-0 flex-1"
              testId="expiry-picker"
            />
            <Button
              variant="secondary"
              onClick={() => {
                update({ expiry: null, expiryPartial: false });
                setExpiryField((n) => n + 1);
                window.setTimeout(() => expiryRef.current?.focus(), 0);
              }}
              disabled={draft.expiry === null && !draft.expiryPartial}
            >
              Clear
            </Button>
          </div>
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">Link Usage Limit</legend>
          <Switch
            checked={draft.unlimited}
            onChange={(unlimited) => {
              update({ unlimited });
              // Turned off, the number it now needs has the focus.
              if (!unlimited) window.setTimeout(() => clicksRef.current?.focus(), 0);
            }}
            label="Unlimited access"
            describedBy={usageHelperId}
            testId="unlimited-switch"
          />
          {draft.unlimited ? null : (
            <FormField
              ref={clicksRef}
              label="Maximum number of clicks"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder="Enter maximum number of clicks"
              value={draft.maxClicks}
              onChange={(event) => update({ maxClicks: event.target.value })}
              error={errors.maxClicks}
              errorTestId="max-clicks-error"
            />
          )}
          <p id={usageHelperId} className="text-xs text-slate-600" data-testid="usage-helper" aria-live="polite">
            {helper}
          </p>
        </fieldset>

        <Alert tone="warning" data-testid="balance-warning">
          <p>{DISTRIBUTION_TEXTS.balanceWarning}</p>
          {cost !== undefined && balance !== undefined ? (
            <p className="mt-1 text-xs" data-testid="distribution-cost">
              {count === 1 ? 'This link costs' : 'These links cost'} {formatCredits(cost)} credits; your balance is{' '}
              {formatCredits(balance)}.
            </p>
          ) : null}
        </Alert>

        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Generate Link(s)</Button>
        </div>
      </form>
    </Modal>
  );
}
