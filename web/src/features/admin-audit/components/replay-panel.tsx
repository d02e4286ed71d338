import { useId, useState, type FormEvent } from 'react';
import type { UserStateAt } from '@seatlink/contracts';
import { LinkFacts } from '../../../components/distribution/link-facts';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { HistoryIcon } from '../../../components/ui/icons';
import { parseDateTimeLocal, toDateTimeLocalValue } from '../../../lib/datetime-local';
import { linkPreview } from '../../../lib/distribution';
import { formatCredits, formatDateTime } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { historyKey, useUserHistoryStore } from '../user-history.store';

function HistoryResult({ state }: { state: UserStateAt }) {
  const at = Date.parse(state.at);
  const linked = state.tickets.filter((t) => t.distribution).length;
  // Tickets with a link first: they are what a replay is usually for.
  const tickets = [...state.tickets].sort((a, b) => Number(!!b.distribution) - Number(!!a.distribution));
  return (
    <div className="mt-4 space-y-4" data-testid="replay-result" data-at={state.at}>
      <p className="text-sm text-slate-600">
        As it stood on <span className="font-semibold text-slate-900">{formatDateTime(state.at)}</span>
      </p>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {[
          ['Balance', `${formatCredits(state.balance)} credits`, 'replay-balance'],
          ['Accounts', String(state.accounts.length), 'replay-accounts-count'],
          ['Tickets with a link', `${linked} of ${state.tickets.length}`, 'replay-linked-count'],
        ].map(([label, value, testId]) => (
          <div key={label} className="rounded-lg border border-slate-200 px-3 py-2">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      {state.accounts.length > 0 ? (
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Accounts</h3>
          <ul className="mt-1 flex flex-wrap gap-2" data-testid="replay-accounts">
            {state.accounts.map((account) => (
              <li
                key={account.account_id}
                className="rounded-md bg-slate-100 px-2 py-1 text-xs text-slate-700"
                title={`Linked ${formatDateTime(account.linked_at)}`}
              >
                {account.email}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div>
        <h3 className="text-sm font-semibold text-slate-900">Tickets</h3>
        {tickets.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">No tickets at that moment.</p>
        ) : (
          <ul className="mt-1 max-h-96 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200">
            {tickets.map((ticket) => (
              <li
                key={ticket.ticket_id}
                className="space-y-1 px-3 py-2"
                data-testid="replay-ticket"
                data-ticket-id={ticket.ticket_id}
                data-linked={ticket.distribution ? 'true' : 'false'}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="min-w-0 truncate text-sm font-medium text-slate-900" title={ticket.title}>
                    {ticket.title}
                  </p>
                  {ticket.distribution ? (
                    <Badge tone="green">Distributed</Badge>
                  ) : (
                    <Badge tone="slate">Not Distributed</Badge>
                  )}
                </div>
                <p className="truncate text-xs text-slate-600">
                  {[ticket.seat_info, ticket.account_email].filter(Boolean).join(' · ')}
                </p>
                {ticket.distribution ? (
                  <div className="space-y-1">
                    <p className="truncate font-mono text-xs text-slate-700" title={ticket.distribution.link}>
                      {linkPreview(ticket.distribution.link)}
                    </p>
                    <LinkFacts
                      link={{
                        clicks: ticket.distribution.clicks,
                        max_clicks: ticket.distribution.max_clicks,
                        expiry: ticket.distribution.expires_at,
                      }}
                      now={at}
                    />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/**
 * Replay (beyond the spec): pick a moment and see the user's balance, accounts and tickets with their links as they
 * stood then, folded by the server from the events (GET /v1/admin/users/{id}/history?at=).
 */
export function ReplayPanel({ userId }: { userId: string }) {
  const [moment, setMoment] = useState(() => toDateTimeLocalValue(Date.now()));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { data, param, loading, error, fetch } = useUserHistoryStore();
  const headingId = useId();
  const now = useNow(60_000);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const at = parseDateTimeLocal(moment);
    if (!at) {
      setFieldError('Enter a date and time');
      return;
    }
    if (at.getTime() > Date.now() + 60_000) {
      setFieldError('Pick a moment that has passed');
      return;
    }
    setFieldError(null);
    void fetch(historyKey({ userId, at: at.toISOString() }));
  };

  const mine = param !== null && param.startsWith(`${userId}@`);
  return (
    <section
      aria-labelledby={headingId}
      className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="replay-panel"
    >
      <div className="flex items-start gap-3">
        <span className="rounded-lg bg-indigo-50 p-2 text-indigo-600" aria-hidden="true">
          <HistoryIcon />
        </span>
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            Replay
          </h2>
          <p className="text-sm text-slate-600">
            Pick a moment to see this user&apos;s balance, accounts and tickets with their links as they stood then.
          </p>
        </div>
      </div>
      <form noValidate onSubmit={submit} className="mt-4 flex flex-wrap items-start gap-3">
        <FormField
          label="Moment"
          type="datetime-local"
          value={moment}
          max={toDateTimeLocalValue(now)}
          onChange={(event) => setMoment(event.target.value)}
          error={fieldError}
          containerClassName="w-full sm:w-72"
        />
        <Button type="submit" className="sm:mt-6" disabled={loading} aria-busy={loading}>
          {loading ? 'Loading...' : 'Show'}
        </Button>
      </form>
      {mine && error ? (
        <Alert tone="error" className="mt-4" data-testid="replay-error">
          {error}
        </Alert>
      ) : null}
      {mine && data ? <HistoryResult state={data} /> : null}
    </section>
  );
}
