import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import {
  API_KEY_NAME_MAX,
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKeyResponse,
} from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormField } from '../../../components/ui/form-field';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { SettingsSection } from '../../../components/ui/settings-section';
import { ShownOnce } from '../../../components/ui/shown-once';
import { CodeChoices } from '../../../components/ui/code-choices';
import { API_BASE_URL, errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { querySlice } from '../../../lib/query-slice';
import { useRequestForm } from '../../../lib/request-form';
import { createApiKey, listApiKeys, revokeApiKey } from '../api/api-keys';

const API_KEYS_KEY = ['api-keys'] as const;
const FETCH_FAILED = 'Failed to fetch your API keys';
const FAILED = 'Something went wrong. Please try again.';

/** A new key: its name and what it may do. */
function CreateKeyForm({
  onCreated,
  onCancel,
}: {
  onCreated: (made: CreatedApiKeyResponse) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['tickets:read', 'links:read']);
  const {
    loading: busy,
    error,
    submit: send,
  } = useRequestForm(
    async (asked: { name: string; scopes: ApiKeyScope[] }) => onCreated(await createApiKey(asked)),
    FAILED,
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && !busy) void send({ name, scopes });
  };
  return (
    <form onSubmit={submit} className="mt-4 max-w-md space-y-3" data-testid="api-key-create">
      <FormField
        id="api-key-name"
        label="Name"
        placeholder="e.g. Box office"
        required
        maxLength={API_KEY_NAME_MAX}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <CodeChoices
        legend="What it may do"
        options={API_KEY_SCOPES}
        labels={API_KEY_SCOPE_LABELS}
        chosen={scopes}
        onChange={setScopes}
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={busy || scopes.length === 0} aria-busy={busy}>
          {busy ? 'Creating...' : 'Create key'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The key just made, shown this once. */
function NewKey({ made, onDone }: { made: CreatedApiKeyResponse; onDone: () => void }) {
  return (
    <ShownOnce
      warning="Copy this key now: it is shown only once. Anyone who has it can act for you within its scopes."
      value={made.key}
      what="key"
      testId="api-key-new"
      valueTestId="api-key-value"
      onDone={onDone}
    />
  );
}

/**
 * The Settings page's API keys: for a holder's own systems (a box office, a shop) to read tickets and make, edit and
 * recall links with `Authorization: Bearer`. Made with a name and scopes (the key shown once), listed with when each
 * was last used, revoked at once.
 */
export function ApiKeysSettings() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: API_KEYS_KEY, queryFn: listApiKeys });
  const { data, error } = querySlice(query, FETCH_FAILED);
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<CreatedApiKeyResponse | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const refresh = () => void client.invalidateQueries({ queryKey: API_KEYS_KEY });
  const revoke = async (key: ApiKey) => {
    setRevoking(null);
    try {
      toast.success((await revokeApiKey(key.id)).message);
    } catch (err) {
      toast.error(errorMessage(err, FAILED));
    } finally {
      refresh();
    }
  };

  let body;
  if (error) body = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="api-keys-error" />;
  else if (!data) body = <LoadingStatus />;
  else if (made) body = <NewKey made={made} onDone={() => setMade(null)} />;
  else {
    body = (
      <>
        {data.api_keys.length ? (
          <ul className="mt-4 divide-y divide-slate-100" data-testid="api-keys">
            {data.api_keys.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="api-key">
                <div className="min-w-0 text-sm">
                  <div className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <span className="break-words">{key.name}</span>
                    <code className="text-xs font-normal text-slate-500">{key.prefix}…</code>
                  </div>
                  <div className="mt-1 flex flex-wrap gap-1">
                    {key.scopes.map((scope) => (
                      <Badge key={scope} tone="slate">
                        {scope}
                      </Badge>
                    ))}
                  </div>
                  <div className="mt-1 text-slate-500">
                    Created {formatDateTime(key.created_at)} ·{' '}
                    {key.last_used_at ? `Last used ${formatDateTime(key.last_used_at)}` : 'Not used yet'}
                  </div>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Revoke ${key.name}`}
                  onClick={() => setRevoking(key)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-slate-700" data-testid="api-keys-none">
            No API keys yet.
          </p>
        )}
        {creating ? (
          <CreateKeyForm
            onCancel={() => setCreating(false)}
            onCreated={(key) => {
              setCreating(false);
              setMade(key);
              refresh();
            }}
          />
        ) : (
          <div className="mt-3 flex justify-end">
            <Button onClick={() => setCreating(true)}>Create an API key</Button>
          </div>
        )}
        {revoking ? (
          <ConfirmDialog
            title="Revoke this API key?"
            message={`"${revoking.name}" stops working at once: every system that uses it is refused from now on.`}
            confirmLabel="Revoke"
            onCancel={() => setRevoking(null)}
            onConfirm={() => void revoke(revoking)}
          />
        ) : null}
      </>
    );
  }

  return (
    <SettingsSection
      title="API keys"
      description={
        <>
          Let your own systems read your tickets, make, edit and recall links, read your notifications and wire up your
          webhooks, with <code className="text-xs">Authorization: Bearer</code> and a key. The calls are described in{' '}
          <a href={`${API_BASE_URL}/docs`} className="font-medium text-indigo-600 hover:text-indigo-500">
            the API documentation
          </a>
          .
        </>
      }
    >
      {body}
    </SettingsSection>
  );
}
