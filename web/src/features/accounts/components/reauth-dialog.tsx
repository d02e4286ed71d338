import { useRef, useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import type { Account } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { validateAccountEntries, type AccountEntry, type AccountEntryErrors } from '../account-rules';
import { ACCOUNT_MESSAGES } from '../accounts.queries';
import { useReauthenticate } from '../use-accounts';
import { AccountFields } from './account-form-fields';

/**
 * Re-authenticate (docs/reference.md "Accounts screens"): the wallet account's e-mail and password again, for an
 * account whose sign-in the wallet service no longer accepts (in error) or to sync it now.
 * POST /v1/accounts/{id}/reauth.
 */
export function ReauthDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const reauthenticate = useReauthenticate();
  const [entry, setEntry] = useState<AccountEntry>({ email: account.email, password: '' });
  const [errors, setErrors] = useState<AccountEntryErrors | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = validateAccountEntries([entry]);
    if (!checked.ok) {
      setErrors(checked.errors[0]);
      return;
    }
    setErrors(undefined);
    setFailure(null);
    setBusy(true);
    const result = await reauthenticate({ id: account.id, body: checked.accounts[0]! });
    setBusy(false);
    if (result.ok) {
      toast.success(ACCOUNT_MESSAGES.reauthenticated);
      onClose();
    } else {
      setFailure(result.message);
    }
  };

  return (
    <Modal
      title="Re-authenticate"
      description={
        <>
          Sign in to <span className="font-medium text-slate-900">{account.email}</span> again so its tickets keep
          syncing.
        </>
      }
      onClose={onClose}
      initialFocusRef={passwordRef}
      testId="reauth-dialog"
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {failure ? (
          <Alert tone="error" data-testid="reauth-error">
            {failure}
          </Alert>
        ) : null}
        <AccountFields
          entry={entry}
          errors={errors}
          disabled={busy}
          passwordRef={passwordRef}
          onChange={(patch) => setEntry((current) => ({ ...current, ...patch }))}
        />
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? 'Re-authenticating...' : 'Re-authenticate'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
