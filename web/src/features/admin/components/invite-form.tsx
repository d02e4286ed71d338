import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { INVITE_MAX_USES } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { Input, Label } from '../../../components/ui/input';
import { useAdminInvitesStore } from '../admin-invites.store';
import { earliestInviteExpiry, validateInviteForm, type InviteFormErrors } from '../invite-codes';

/**
 * The generate form of the invite codes page (SPEC.md §5): max uses a whole number 1 to 1000 (default 100); expiry
 * date required and at least tomorrow (the date picker's minimum is tomorrow in local time). The form checks itself so
 * its own messages show.
 */
export function InviteForm() {
  const maxUsesId = useId();
  const expiresId = useId();
  const generate = useAdminInvitesStore((s) => s.generate);
  const [maxUses, setMaxUses] = useState(String(INVITE_MAX_USES.default));
  const [expiresAt, setExpiresAt] = useState('');
  const [errors, setErrors] = useState<InviteFormErrors>({});
  const [busy, setBusy] = useState(false);
  const tomorrow = earliestInviteExpiry();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const result = validateInviteForm({ maxUses, expiresAt });
    if (!result.ok) {
      setErrors(result.errors);
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
      aria-label="Generate invite code"
    >
      <h2 className="text-base font-semibold text-slate-900">Generate Invite Code</h2>
      <div className="mt-4 flex flex-wrap items-start gap-4">
        <div className="w-40 space-y-1">
          <Label htmlFor={maxUsesId}>Max Uses</Label>
          <Input
            id={maxUsesId}
            name="max_uses"
            type="number"
            inputMode="numeric"
            min={INVITE_MAX_USES.min}
            max={INVITE_MAX_USES.max}
            step={1}
            required
            aria-invalid={errors.maxUses ? true : undefined}
            aria-describedby={errors.maxUses ? `${maxUsesId}-error` : undefined}
            value={maxUses}
            onChange={(event) => setMaxUses(event.target.value)}
          />
          {errors.maxUses ? (
            <p id={`${maxUsesId}-error`} role="alert" className="text-sm text-red-600" data-testid="max-uses-error">
              {errors.maxUses}
            </p>
          ) : null}
        </div>
        <div className="w-48 space-y-1">
          <Label htmlFor={expiresId}>Expiry Date</Label>
          <Input
            id={expiresId}
            name="expires_at"
            type="date"
            min={tomorrow}
            required
            aria-invalid={errors.expiresAt ? true : undefined}
            aria-describedby={errors.expiresAt ? `${expiresId}-error` : undefined}
            value={expiresAt}
            onChange={(event) => setExpiresAt(event.target.value)}
          />
          {errors.expiresAt ? (
            <p id={`${expiresId}-error`} role="alert" className="text-sm text-red-600" data-testid="expires-at-error">
              {errors.expiresAt}
            </p>
          ) : null}
        </div>
        <div className="pt-6">
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? 'Generating...' : 'Generate Code'}
          </Button>
        </div>
      </div>
    </form>
  );
}
