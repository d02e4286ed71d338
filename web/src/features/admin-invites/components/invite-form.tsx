import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { INVITE_MAX_USES } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { EN_GB_DATE_FORMAT, formatIsoAsEnGb, parseEnGbDate } from '../../../lib/en-gb-date';
import { useGenerateInvite } from '../use-admin-invites';
import { earliestInviteExpiry, INVITE_FORM_MESSAGES, validateInviteForm, type InviteFormErrors } from '../invite-codes';

/**
 * The generate form of the invite codes page (SPEC.md §5): max uses a whole number 1 to 1000 (default 100); expiry
 * date required and at least tomorrow. The form checks itself so its own messages show.
 *
 * The expiry is a text field read as dd/mm/yyyy (lib/en-gb-date.ts says why it is not a native date field: Chromium
 * would show mm/dd/yyyy in an en-US browser, and the product shows en-GB dates everywhere).
 */
export function InviteForm() {
  const generate = useGenerateInvite();
  const [maxUses, setMaxUses] = useState(String(INVITE_MAX_USES.default));
  const [expiresAt, setExpiresAt] = useState('');
  const [errors, setErrors] = useState<InviteFormErrors>({});
  const [busy, setBusy] = useState(false);
  const earliest = formatIsoAsEnGb(earliestInviteExpiry());

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const typed = expiresAt.trim();
    const isoDate = parseEnGbDate(typed);
    const result = validateInviteForm({ maxUses, expiresAt: isoDate ?? typed });
    const dateUnreadable = typed !== '' && isoDate === null;
    if (!result.ok || dateUnreadable) {
      const found = result.ok ? {} : result.errors;
      setErrors(dateUnreadable ? { ...found, expiresAt: INVITE_FORM_MESSAGES.expiryFormat } : found);
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
        <FormField
          label="Expiry Date"
          containerClassName="w-56"
          name="expires_at"
          inputMode="numeric"
          autoComplete="off"
          placeholder={EN_GB_DATE_FORMAT}
          required
          value={expiresAt}
          onChange={(event) => setExpiresAt(event.target.value)}
          error={errors.expiresAt}
          errorTestId="expires-at-error"
          hint={
            <>
              {EN_GB_DATE_FORMAT}, earliest <span data-testid="expires-at-earliest">{earliest}</span>
            </>
          }
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
