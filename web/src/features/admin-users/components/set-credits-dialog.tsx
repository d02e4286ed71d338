import { useRef, useState, type FormEvent } from 'react';
import { MAX_CREDITS_REASON_LENGTH, type User } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { formatCredits } from '../../../lib/format';
import { reasonError } from '../credits';

export interface SetCreditsDialogProps {
  /** The user as the list shows them now: their balance is the "from" (and follows the list while this is open). */
  user: User;
  credits: number;
  busy: boolean;
  /** The server's refusal, shown in the dialog (the balance changed, a reason it refused...). */
  error: string | null;
  onConfirm: (change: { reason: string; expectedBalance: number }) => void;
  onCancel: () => void;
}

/** '+25', '−10', 'no change'. */
function difference(from: number, to: number): string {
  if (from === to) return 'no change';
  return `${to > from ? '+' : '−'}${formatCredits(Math.abs(to - from))}`;
}

/**
 * Asks before an admin sets a user's credits: from what to what, and why. The reason is required (one line, at most
 * MAX_CREDITS_REASON_LENGTH characters, checked here as the server checks it) and is kept in the user's audit log; the
 * balance confirmed is sent with it, so a balance that moved meanwhile is refused, not silently replaced.
 */
export function SetCreditsDialog({ user, credits, busy, error, onConfirm, onCancel }: SetCreditsDialogProps) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const reasonRef = useRef<HTMLInputElement>(null);
  const from = user.balance;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problem = reasonError(reason);
    setFieldError(problem);
    if (problem) {
      reasonRef.current?.focus();
      return;
    }
    onConfirm({ reason, expectedBalance: from });
  };

  return (
    <Modal
      title="Set credits"
      description={
        <>
          <span className="font-medium text-slate-900">{user.email}</span>: from{' '}
          <span className="font-semibold text-slate-900 tabular-nums" data-testid="credits-from">
            {formatCredits(from)}
          </span>{' '}
          to{' '}
          <span className="font-semibold text-slate-900 tabular-nums" data-testid="credits-to">
            {formatCredits(credits)}
          </span>{' '}
          credits (<span data-testid="credits-difference">{difference(from, credits)}</span>).
        </>
      }
      onClose={onCancel}
      initialFocusRef={reasonRef}
      role="alertdialog"
      testId="set-credits-dialog"
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <FormField
          ref={reasonRef}
          label="Reason"
          value={reason}
          maxLength={MAX_CREDITS_REASON_LENGTH}
          autoComplete="off"
          required
          placeholder="e.g. Goodwill for the outage on 3 March"
          onChange={(event) => {
            setReason(event.target.value);
            setFieldError(null);
          }}
          error={fieldError}
          errorTestId="credits-reason-error"
          hint={
            <span className="flex justify-between gap-2">
              <span>Kept in the user&apos;s audit log.</span>
              <span className="tabular-nums" data-testid="credits-reason-count">
                {reason.length}/{MAX_CREDITS_REASON_LENGTH}
              </span>
            </span>
          }
        />
        {error ? (
          <Alert tone="error" data-testid="set-credits-error">
            {error}
          </Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? 'Setting...' : 'Set credits'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
