import { useCallback, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { MAX_LINK_LABEL } from '@seatlink/contracts';
import {
  DISTRIBUTION_TEXTS,
  draftLetsSeveralSave,
  eventStartExpiry,
  maxExpiryValue,
  minExpiryValue,
  usageHelper,
  type DistributionSettings,
  type DistributionSettingsDraft,
  type DistributionSettingsErrors,
} from '../../lib/distribution';
import { formatDateTime } from '../../lib/format';
import { localDateTimeOf } from '../../lib/local-date-time';
import { useNow } from '../../lib/use-now';
import { Button } from '../ui/button';
import { AlertIcon, CalendarIcon } from '../ui/icons';
import { DatePicker, type DatePickerHandle } from '../ui/date-picker';
import { FormField } from '../ui/form-field';
import { Switch } from '../ui/switch';

export type SettingsCheck = (
  draft: DistributionSettingsDraft,
  now: number,
) => { ok: true; value: DistributionSettings } | { ok: false; errors: DistributionSettingsErrors };

/** Which settings a form for many links changes (the others stay as each link has them). */
export interface SettingsChoice {
  expiry: boolean;
  limit: boolean;
  label: boolean;
  pin: boolean;
}

export interface LinkSettingsFormProps {
  /** The fields as they start: empty for new links, a live link's settings when it is edited. */
  initial: DistributionSettingsDraft;
  /** Checks the fields on submit (validateDistributionSettings, with what the caller knows of the link). */
  check: SettingsCheck;
  /** The checked settings; with `choose`, which of them to change. */
  onSubmit: (settings: DistributionSettings, choice: SettingsChoice) => void;
  onCancel: () => void;
  /**
   * Many links at once: each setting has a 'Change …' box, and only those ticked are shown, checked and changed.
   */
  choose?: boolean;
  submitLabel: string;
  /** Shown above the buttons (the balance warning). */
  children?: ReactNode;
  /** Disables the submit while the caller's request runs. */
  busy?: boolean;
  /** The start of the tickets' next game: offered as the expiry ('When the event starts') when it can be one. */
  eventStart?: string | null;
  /** The link being edited has a PIN (a new one replaces it; it can be taken off). Absent: a new link, or many. */
  hasPin?: boolean;
  /** With `choose`: something besides the settings changes (recipients pasted), so none need be ticked. */
  alsoChanges?: boolean;
}

/**
 * A link's settings (docs/reference.md "Distribution Settings dialog"): an optional expiry (a date and 24-hour time
 * picked en-GB, with a Clear button), a usage limit ('Unlimited access', or a whole number of clicks) and an optional
 * label ("for Sam"). The fields are checked before anything is sent; a mistake is named under its field, which gets the
 * focus. Used to make links and to edit a live one.
 */
export function LinkSettingsForm({
  initial,
  check,
  onSubmit,
  onCancel,
  submitLabel,
  children,
  busy = false,
  choose = false,
  eventStart = null,
  hasPin,
  alsoChanges = false,
}: LinkSettingsFormProps) {
  const [choice, setChoice] = useState<SettingsChoice>({
    expiry: !choose,
    limit: !choose,
    label: !choose,
    pin: !choose,
  });
  const [noChoice, setNoChoice] = useState(false);
  const [draft, setDraft] = useState<DistributionSettingsDraft>(initial);
  const [errors, setErrors] = useState<DistributionSettingsErrors>({});
  const now = useNow(30_000);
  const startExpiry = eventStartExpiry(eventStart, now);
  const expiryRef = useRef<DatePickerHandle>(null);
  const clicksRef = useRef<HTMLInputElement>(null);
  const labelRef = useRef<HTMLInputElement>(null);
  const pinRef = useRef<HTMLInputElement>(null);
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
      if ('label' in patch) delete next.label;
      if ('pin' in patch || 'removePin' in patch) delete next.pin;
      return next;
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!choice.expiry && !choice.limit && !choice.label && !choice.pin && !alsoChanges) {
      setNoChoice(true);
      return;
    }
    // A setting left as it is takes no part in the check.
    const checked = check(
      {
        ...draft,
        ...(choice.expiry ? {} : { expiry: null, expiryPartial: false }),
        ...(choice.limit ? {} : { unlimited: true }),
        ...(choice.label ? {} : { label: '' }),
        ...(choice.pin ? {} : { pin: '', removePin: false }),
      },
      Date.now(),
    );
    // Many links, 'Change the PIN' ticked: a new PIN, or taking it off.
    if (choose && choice.pin && !draft.removePin && draft.pin.trim() === '' && checked.ok) {
      setErrors({ pin: DISTRIBUTION_TEXTS.pinOrRemove });
      pinRef.current?.focus();
      return;
    }
    if (!checked.ok) {
      setErrors(checked.errors);
      if (checked.errors.expiry) expiryRef.current?.focus();
      else if (checked.errors.maxClicks) clicksRef.current?.focus();
      else if (checked.errors.label) labelRef.current?.focus();
      else pinRef.current?.focus();
      return;
    }
    onSubmit(checked.value, choice);
  };
  /** A 'Change …' box of a setting, for many links at once. */
  const chooser = (key: keyof SettingsChoice, label: string) =>
    choose ? (
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-400 accent-indigo-600"
          checked={choice[key]}
          onChange={(event) => {
            setChoice((current) => ({ ...current, [key]: event.target.checked }));
            setNoChoice(false);
          }}
          data-testid={`change-${key}`}
        />
        {label}
      </label>
    ) : null;
  const onExpiryPartial = useCallback(
    (expiryPartial: boolean) => setDraft((current) => ({ ...current, expiryPartial })),
    [],
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Link Expiration</legend>
        {chooser('expiry', 'Change the expiry')}
        {choice.expiry ? (
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
        ) : null}
        {choice.expiry && startExpiry ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              update({ expiry: localDateTimeOf(new Date(startExpiry)), expiryPartial: false });
              setExpiryField((n) => n + 1);
            }}
            className="h-auto -ml-2 text-left text-indigo-700"
            data-testid="expire-at-event-start"
          >
            <CalendarIcon className="h-4 w-4" />
            When the event starts ({formatDateTime(startExpiry)})
          </Button>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Link Usage Limit</legend>
        {chooser('limit', 'Change the usage limit')}
        {choice.limit ? (
          <>
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
              {usageHelper(draft)}
            </p>
            {/* A ticket is one seat: a warning, never a refusal (docs/reference.md "Distribution Settings dialog"). */}
            <div aria-live="polite">
              {draftLetsSeveralSave(draft) ? (
                <p
                  className="flex items-start gap-1.5 rounded-md bg-amber-50 px-2.5 py-2 text-xs font-medium text-amber-900 ring-1 ring-amber-600/20 ring-inset"
                  data-testid="seat-sharing-warning"
                >
                  <AlertIcon className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
                  {DISTRIBUTION_TEXTS.seatSharing}
                </p>
              ) : null}
            </div>
          </>
        ) : null}
      </fieldset>

      {chooser('label', 'Change the label')}
      {choice.label ? (
        <FormField
          ref={labelRef}
          label="Label"
          hint={`Optional. Who the link is for, for you to find it again (at most ${MAX_LINK_LABEL} characters).`}
          placeholder="e.g. for Sam"
          autoComplete="off"
          value={draft.label}
          onChange={(event) => update({ label: event.target.value })}
          error={errors.label}
          errorTestId="label-error"
          data-testid="link-label-input"
        />
      ) : null}

      {chooser('pin', 'Change the PIN')}
      {choice.pin ? (
        <div className="space-y-2">
          {hasPin && !choose ? (
            <p className="text-sm text-slate-700" data-testid="has-pin">
              This link has a PIN. Enter a new one to replace it (that also unlocks a locked link).
            </p>
          ) : null}
          {draft.removePin ? null : (
            <FormField
              ref={pinRef}
              label={hasPin || choose ? 'New PIN' : 'PIN'}
              hint="Optional. 4 to 8 digits the recipient must enter before adding the ticket to their wallet. Share it apart from the link: it is not shown again."
              inputMode="numeric"
              autoComplete="off"
              maxLength={8}
              value={draft.pin}
              onChange={(event) => update({ pin: event.target.value.replace(/\D/g, '') })}
              error={errors.pin}
              errorTestId="pin-error"
              data-testid="link-pin-input"
            />
          )}
          {hasPin || choose ? (
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400 accent-indigo-600"
                checked={draft.removePin}
                onChange={(event) => update({ removePin: event.target.checked, pin: '' })}
                data-testid="remove-pin"
              />
              Remove the PIN
            </label>
          ) : null}
        </div>
      ) : null}

      {noChoice ? (
        <p role="alert" className="text-sm text-red-700" data-testid="no-choice">
          {DISTRIBUTION_TEXTS.chooseSomething}
        </p>
      ) : null}

      {children}

      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
