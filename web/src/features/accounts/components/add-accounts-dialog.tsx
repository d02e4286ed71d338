import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { MAX_ACCOUNT_ROWS, validateAccountEntries, type AccountEntry, type AccountEntryErrors } from '../account-rules';
import { ACCOUNT_MESSAGES } from '../accounts.queries';
import { batchOutcome, type BatchOutcome } from '../batch-outcome';
import { AccountFields } from './account-form-fields';
import { BatchAddResult } from './batch-add-result';
import { useLinkAccounts } from '../use-accounts';

interface Row extends AccountEntry {
  key: number;
}

let nextKey = 1;
const emptyRow = (): Row => ({ key: nextKey++, email: '', password: '' });

/**
 * The Add Accounts form (docs/reference.md "Accounts screens"): the e-mail and password of one wallet account, or of
 * several ('Add another account'). One is linked with POST /v1/accounts, several with one batch call that links each on
 * its own: the linked ones leave the form, the refused ones stay with their reason, ready to correct and send again. A
 * batch with some added says how many and which were not (BatchAddResult); only one with none added is a failure.
 */
export function AddAccountsDialog({ onClose }: { onClose: () => void }) {
  const link = useLinkAccounts();
  const [rows, setRows] = useState<Row[]>(() => [emptyRow()]);
  const [errors, setErrors] = useState<AccountEntryErrors[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [results, setResults] = useState<BatchOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const update = (key: number, patch: Partial<AccountEntry>) => {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  };
  const addRow = () => setRows((current) => (current.length < MAX_ACCOUNT_ROWS ? [...current, emptyRow()] : current));
  const removeRow = (key: number) => {
    const index = rows.findIndex((row) => row.key === key);
    setRows((current) => current.filter((row) => row.key !== key));
    setErrors((current) => current.filter((_, i) => i !== index));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = validateAccountEntries(rows);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors([]);
    setFailure(null);
    setBusy(true);
    const outcome = await link(checked.accounts);
    setBusy(false);

    if (outcome.kind === 'single') {
      if (outcome.ok) {
        toast.success(ACCOUNT_MESSAGES.connected);
        onClose();
      } else {
        // Said once, beside the form (not again in a toast).
        setFailure(outcome.message);
      }
      return;
    }
    if (!outcome.results) {
      setFailure(outcome.message);
      return;
    }
    const summary = batchOutcome(outcome.results);
    if (summary.kind !== 'none') toast.success(ACCOUNT_MESSAGES.connected);
    if (summary.kind === 'all') {
      onClose();
      return;
    }
    // None added: the result in the dialog says 'Failed to add accounts' and why, each; no toast says it again.
    setResults(summary);
    // The refused rows stay for another try; the linked ones are done.
    const refused = new Set(outcome.results.filter((r) => !r.account).map((r) => r.email.toLowerCase()));
    setRows((current) => {
      const kept = current.filter((row) => refused.has(row.email.trim().toLowerCase()));
      return kept.length > 0 ? kept : [emptyRow()];
    });
  };

  const several = rows.length > 1;
  const submitLabel = busy ? 'Adding...' : several ? `Add ${rows.length} Accounts` : 'Add Account';

  return (
    <Modal
      title="Add Accounts"
      description="Enter the e-mail and password of each wallet account to link. Its tickets sync in the background and can take up to 15 minutes to appear."
      onClose={onClose}
      size="lg"
      testId="add-accounts-dialog"
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {results ? <BatchAddResult outcome={results} /> : null}

        {failure ? (
          <Alert tone="error" data-testid="add-accounts-error">
            {failure}
          </Alert>
        ) : null}

        <div className="space-y-4">
          {rows.map((row, index) => (
            <fieldset
              key={row.key}
              className={several ? 'rounded-lg border border-slate-200 p-3' : undefined}
              data-testid="account-entry"
            >
              <legend className={several ? 'px-1 text-sm font-medium text-slate-700' : 'sr-only'}>
                Account {index + 1}
              </legend>
              <div className="flex items-start gap-2">
                <div className="min-w-0 flex-1">
                  <AccountFields
                    entry={row}
                    errors={errors[index]}
                    suffix={several ? `account ${index + 1}` : undefined}
                    disabled={busy}
                    autoFocus={index === 0}
                    onChange={(patch) => update(row.key, patch)}
                  />
                </div>
                {several ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="mt-6"
                    aria-label={`Remove account ${index + 1}`}
                    title="Remove"
                    disabled={busy}
                    onClick={() => removeRow(row.key)}
                  >
                    <TrashIcon className="h-4 w-4" />
                  </Button>
                ) : null}
              </div>
            </fieldset>
          ))}
        </div>

        <Button
          variant="secondary"
          size="sm"
          onClick={addRow}
          disabled={busy || rows.length >= MAX_ACCOUNT_ROWS}
          title={rows.length >= MAX_ACCOUNT_ROWS ? `At most ${MAX_ACCOUNT_ROWS} accounts at once` : undefined}
        >
          <PlusIcon className="h-4 w-4" />
          Add another account
        </Button>

        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
          <Button variant="secondary" onClick={onClose}>
            {results ? 'Close' : 'Cancel'}
          </Button>
          <Button type="submit" disabled={busy || rows.length === 0} aria-busy={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
