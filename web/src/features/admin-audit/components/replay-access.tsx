import type { UserStateAt } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { formatDateTime } from '../../../lib/format';

/** A labelled list of names, or what says there was none. */
function Names({ label, names, none, testId }: { label: string; names: string[]; none: string; testId: string }) {
  return (
    <div className="py-1.5 sm:grid sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-x-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 text-slate-900" data-testid={testId}>
        {names.length === 0 ? <span className="text-slate-600">{none}</span> : names.join(', ')}
      </dd>
    </div>
  );
}

/**
 * The user's access as it stood at the replayed moment (GET /v1/admin/users/{id}/history `access`): banned or not,
 * their second factors, and what acted for them — the API keys that worked and the webhook endpoints.
 */
export function ReplayAccess({ access }: { access: UserStateAt['access'] }) {
  return (
    <div data-testid="replay-access">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        Access
        {access.banned ? (
          <Badge tone="red" testId="replay-banned">
            Banned
          </Badge>
        ) : (
          <Badge tone="green" testId="replay-banned">
            Not banned
          </Badge>
        )}
      </h3>
      <dl className="mt-1 divide-y divide-slate-100 text-sm">
        <Names
          label="Second factors"
          names={[
            ...(access.authenticator ? ['Authenticator app'] : []),
            ...access.passkeys.map((p) => `Passkey “${p}”`),
          ]}
          none="None"
          testId="replay-factors"
        />
        <Names
          label="API keys"
          names={access.api_keys.map(
            (k) => `“${k.name}” (${k.scopes.join(', ')}), made ${formatDateTime(k.created_at)}`,
          )}
          none="None"
          testId="replay-api-keys"
        />
        <Names
          label="Webhooks"
          names={access.webhooks.map((w) => `${w.url}${w.enabled ? '' : ' (disabled)'}`)}
          none="None"
          testId="replay-webhooks"
        />
      </dl>
    </div>
  );
}
