import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import type { User } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { useSessionStore } from '../../../lib/session.store';
import { useSetCredits } from '../use-admin-users';
import { CREDITS_INVALID_MESSAGE, parseCredits } from '../credits';
import { SetCreditsDialog } from './set-credits-dialog';

/**
 * Per-user credits form (docs/reference.md "Admin form rules": integer, minimum 0, step 1). The field holds the user's
 * current balance as its value, and follows the balance while the admin has not typed; a value that is not a whole
 * number of at least 0 is named under the field and nothing is sent. Set asks first (SetCreditsDialog: from what to
 * what, and a reason); a refusal of the server is said in the dialog, beside the toast. Lives inside a clickable row,
 * so it stops clicks.
 */
export function SetCreditsForm({ user }: { user: User }) {
  const setCredits = useSetCredits();
  // What the admin typed; null while untouched, so the field shows the balance as it is now.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The credits being confirmed (the dialog is open), and the server's refusal of the last try. */
  const [confirming, setConfirming] = useState<{ credits: number; error: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const value = draft ?? String(user.balance);

  const ask = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const credits = parseCredits(value);
    if (credits === null) {
      setError(CREDITS_INVALID_MESSAGE);
      return;
    }
    setError(null);
    setConfirming({ credits, error: null });
  };

  const confirm = async (credits: number, change: { reason: string; expectedBalance: number }) => {
    if (busy) return;
    setBusy(true);
    const result = await setCredits({ userId: user.id, credits, ...change });
    setBusy(false);
    if (result.ok) {
      // The signed-in admin's own balance follows at once (the socket push confirms it).
      useSessionStore.getState().userChanged(result.user);
      setDraft(null);
      setConfirming(null);
      toast.success('Credits updated successfully');
    } else {
      // docs/reference.md "Fallback texts": the toast says 'Failed to update credits'; the dialog says why (the
      // server's message, or 'Failed to update user credits'). A balance that moved is shown as it is now (the list is
      // read again).
      toast.error('Failed to update credits');
      setConfirming({ credits, error: result.message });
    }
  };

  return (
    // Lives inside a clickable row: clicks and keys stay here (the dialog's too, which React passes up through here).
    <div onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
      <form noValidate className="flex items-start gap-2" onSubmit={ask} data-testid="set-credits-form">
        <FormField
          label={`Credits for ${user.email}`}
          hideLabel
          containerClassName="w-24 whitespace-normal"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          required
          value={value}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
          error={error}
          errorTestId="credits-error"
          className="tabular-nums"
        />
        <Button type="submit" size="sm" variant="secondary" className="mt-0.5" disabled={busy} aria-busy={busy}>
          Set
        </Button>
      </form>
      {confirming ? (
        <SetCreditsDialog
          user={user}
          credits={confirming.credits}
          busy={busy}
          error={confirming.error}
          onConfirm={(change) => void confirm(confirming.credits, change)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </div>
  );
}
