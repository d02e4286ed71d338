import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { User } from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useAuthStore } from '../../auth/auth.store';
import { useAdminUsersStore } from '../admin-users.store';
import { parseCredits } from '../credits';

/** Per-user credits form (SPEC.md §5: integer, minimum 0, step 1). Lives inside a clickable row, so it stops clicks. */
export function SetCreditsForm({ user }: { user: User }) {
  const inputId = useId();
  const setCredits = useAdminUsersStore((s) => s.setCredits);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const credits = parseCredits(value);
    if (credits === null || busy) return;
    setBusy(true);
    const result = await setCredits(user.id, credits);
    setBusy(false);
    if (result.ok) {
      // The signed-in admin's own balance follows at once (the socket push confirms it).
      useAuthStore.getState().updateUser(result.user);
      setValue('');
      toast.success('Credits updated successfully');
    } else {
      toast.error(result.message);
    }
  };

  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(event) => void submit(event)}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
      data-testid="set-credits-form"
    >
      <label htmlFor={inputId} className="sr-only">
        Credits for {user.email}
      </label>
      <div className="w-24">
        <Input
          id={inputId}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          required
          placeholder={String(user.balance)}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <Button type="submit" size="sm" variant="secondary" disabled={busy} aria-busy={busy}>
        Set
      </Button>
    </form>
  );
}
