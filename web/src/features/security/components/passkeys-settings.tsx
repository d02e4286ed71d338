import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { SettingsSection } from '../../../components/ui/settings-section';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { querySlice } from '../../../lib/query-slice';
import { useRequestForm } from '../../../lib/request-form';
import { createPasskey, passkeysSupported } from '../../../lib/webauthn';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, removePasskey } from '../api/passkeys';
import { MFA_KEY } from '../mfa.queries';
import { RecoveryCodes } from './recovery-codes';

const PASSKEYS_KEY = ['passkeys'] as const;
const FETCH_FAILED = 'Failed to fetch your passkeys';
const FAILED = 'Something went wrong. Please try again.';

/** Names the new passkey, then has the browser make it (a fingerprint, a face, a PIN or a security key). */
function AddPasskeyForm({ onAdded, onCancel }: { onAdded: (codes?: string[]) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const {
    loading: busy,
    error,
    submit: send,
  } = useRequestForm(async (named: string) => {
    const response = await createPasskey(await passkeyRegistrationOptions());
    const added = await addPasskey({ name: named, response });
    toast.success(added.message);
    onAdded(added.recovery_codes);
  }, FAILED);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && !busy) void send(name);
  };
  return (
    <form onSubmit={submit} className="mt-4 max-w-sm space-y-3" data-testid="passkey-add">
      <FormField
        id="passkey-name"
        label="Name"
        placeholder="e.g. Work laptop"
        required
        maxLength={PASSKEY_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <p className="text-xs text-slate-500">Your browser then asks for your fingerprint, face, PIN or security key.</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? 'Waiting for your passkey...' : 'Add passkey'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The Settings page's passkeys: each signs in without a password and counts as a second factor after one. Added with
 * a name (the first comes with recovery codes, shown once), listed with when each was last used, removed one by one.
 */
export function PasskeysSettings() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: PASSKEYS_KEY, queryFn: listPasskeys });
  const { data, error } = querySlice(query, FETCH_FAILED);
  const [adding, setAdding] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const refresh = () => {
    void client.invalidateQueries({ queryKey: PASSKEYS_KEY });
    void client.invalidateQueries({ queryKey: MFA_KEY });
  };
  const remove = async (id: string) => {
    setRemoving(id);
    try {
      toast.success((await removePasskey(id)).message);
    } catch (err) {
      toast.error(errorMessage(err, FAILED));
    } finally {
      setRemoving(null);
      refresh();
    }
  };

  let body;
  if (error) body = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="passkeys-error" />;
  else if (!data) body = <LoadingStatus />;
  else if (codes) body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  else {
    body = (
      <>
        {data.passkeys.length ? (
          <ul className="mt-4 divide-y divide-slate-100" data-testid="passkeys">
            {data.passkeys.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="passkey">
                <div className="min-w-0 text-sm">
                  <div className="break-words font-medium text-slate-900">{p.name}</div>
                  <div className="text-slate-500">
                    Added {formatDateTime(p.created_at)} ·{' '}
                    {p.last_used_at ? `Last used ${formatDateTime(p.last_used_at)}` : 'Not used yet'}
                  </div>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={removing !== null}
                  aria-busy={removing === p.id}
                  aria-label={`Remove passkey ${p.name}`}
                  onClick={() => void remove(p.id)}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-slate-700" data-testid="passkeys-none">
            No passkeys yet.
          </p>
        )}
        {!passkeysSupported() ? (
          <p className="mt-3 text-sm text-slate-500">{PASSKEY_MESSAGES.unsupported}</p>
        ) : adding ? (
          <AddPasskeyForm
            onCancel={() => setAdding(false)}
            onAdded={(recoveryCodes) => {
              setAdding(false);
              if (recoveryCodes) setCodes(recoveryCodes);
              refresh();
            }}
          />
        ) : (
          <div className="mt-3 flex justify-end">
            <Button onClick={() => setAdding(true)} data-testid="passkey-add-start">
              Add a passkey
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <SettingsSection
      title="Passkeys"
      description="Sign in with your fingerprint, face, screen lock or a security key instead of a password. A passkey also confirms a sign-in made with your password."
    >
      {body}
    </SettingsSection>
  );
}
