import { useCallback, useState, type FormEvent } from 'react';
import type { CalendarDate } from '@internationalized/date';
import { toast } from '../../../lib/toast';
import { INVITE_MAX_USES } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { DatePicker } from '../../../components/ui/date-picker';
import { FormField } from '../../../components/ui/form-field';
import { parseCalendarDate } from '../../../lib/local-date-time';
import { useGenerateInvite } from '../use-admin-invites';
import { earliestInviteExpiry, INVITE_FORM_MESSAGES, validateInviteForm, type InviteFormErrors } from '../invite-codes';

/** A calendar date as the field shows it: '27/11/2026'. */
const enGbDate = (date: CalendarDate) =>
  `${String(date.day).padStart(2, '0')}/${String(date.month).padStart(2, '0')}/${String(date.year).padStart(4, '0')}`;

/**
 * The generate form of the invite codes page (docs/reference.md "Admin form rules"): max uses a whole number 1 to 1000
 * (default 100); expiry date required and at least tomorrow. The form checks itself so its own messages show.
 *
 * The expiry is a date picker in en-GB (dd/mm/yyyy, whatever the browser's locale; a native date field would show
 * mm/dd/yyyy in an en-US browser): typed or picked from its calendar, which offers nothing before the earliest day.
 */
export function InviteForm() {
  const generate = useGenerateInvite();
  const [maxUses, setMaxUses] = useState(String(INVITE_MAX_USES.default));
  const [expiresAt, setExpiresAt] = useState<CalendarDate | null>(null);
  const [partial, setPartial] = useState(false);
  const [errors, setErrors] = useState<InviteFormErrors>({});
  const [busy, setBusy] = useState(false);
  const earliest = parseCalendarDate(earliestInviteExpiry());
  const onPartialChange = useCallback((value: boolean) => setPartial(value), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const result = validateInviteForm({ maxUses, expiresAt: expiresAt?.toString() ?? '' });
    // A date typed in part is not "no date": it is named as such.
    if (!result.ok || partial) {
      const found = result.ok ? {} : result.errors;
      setErrors(partial ? { ...found, expiresAt: INVITE_FORM_MESSAGES.expiryFormat } : found);
      return;
    }
    setErrors({});
    setBusy(true);
    const outcome = await generate(result.body);
    setBusy(false);
    if (outcome.ok) toast.success('New invite code generated');
    else toast.error(outcome.message);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="mb-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="invite-form"
      aria-labelledby="invite-form-title"
    >
      <h2 id="invite-form-title" className="text-base font-semibold text-slate-900">
        Generate Invite Code
      </h2>
      <div className="mt-4 flex flex-wrap items-start gap-4">
        <FormField
          label="Max Uses"
          containerClassName="w-40"
          name="max_uses"
          type="number"
          inputMode="numeric"
          min={INVITE_MAX_USES.min}
          max={INVITE_MAX_USES.max}
          step={1}
          required
          value={maxUses}
          onChange={(event) => setMaxUses(event.target.value)}
          error={errors.maxUses}
          errorTestId="max-uses-error"
        />
        <DatePicker
          label="Expiry Date"
          granularity="day"
          value={expiresAt}
          onChange={(value) => {
            setExpiresAt(value);
            setErrors((current) => ({ ...current, expiresAt: undefined }));
          }}
          onPartialChange={onPartialChange}
          minValue={earliest ?? undefined}
          placeholderValue={earliest ?? undefined}
          error={errors.expiresAt}
          errorTestId="expires-at-error"
          hint={
            <>
              Earliest <span data-testid="expires-at-earliest">{earliest ? enGbDate(earliest) : ''}</span>
            </>
          }
          className="w-60"
          testId="invite-expiry"
        />
        <div className="pt-6">
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? 'Generating...' : 'Generate Code'}
          </Button>
        </div>
      </div>
    </form>
  );
}
