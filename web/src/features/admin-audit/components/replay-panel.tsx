import { useQuery } from '@tanstack/react-query';
import { useCallback, useId, useState, type FormEvent } from 'react';
import type { CalendarDateTime } from '@internationalized/date';
import type { CreditChange, UserStateAt } from '@seatlink/contracts';
import { LinkFacts } from '../../../components/distribution/link-facts';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cx } from '../../../components/ui/cx';
import { DatePicker } from '../../../components/ui/date-picker';
import { HistoryIcon } from '../../../components/ui/icons';
import { linkPreview } from '../../../lib/distribution';
import { creditsOf, formatCredits, formatDateTime } from '../../../lib/format';
import { instantOf, localDateTimeOf } from '../../../lib/local-date-time';
import { querySlice } from '../../../lib/query-slice';
import { useNow } from '../../../lib/use-now';
import { creditChangeLabel, formatCreditChange } from '../credit-changes';
import { HISTORY_FETCH_FAILED, userHistoryQuery } from '../admin-audit.queries';
import { ReplayAccess } from './replay-access';

const momentDate = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
const momentTime = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
/** A moment to the second ('22 Nov 2026, 10:52:54'): the events of one request are seconds apart. */
const formatMoment = (iso: string) => `${momentDate.format(new Date(iso))}, ${momentTime.format(new Date(iso))}`;

/** The moment of a change: one line from the small breakpoint up, the date over the time on a phone. */
function ChangeTime({ at }: { at: string }) {
  const date = new Date(at);
  return (
    <time dateTime={at} className="whitespace-nowrap">
      <span className="block sm:inline">{momentDate.format(date)}</span>
      <span className="hidden sm:inline">, </span>
      <span className="block text-xs text-slate-500 sm:inline sm:text-sm sm:text-slate-700">
        {momentTime.format(date)}
      </span>
    </time>
  );
}

const cell = 'px-2 py-1.5 sm:px-3';

/**
 * The credit changes up to the moment, oldest first, each with the balance it left (a statement). On a phone the
 * card payment goes under what the change was, so the amounts stay in view.
 */
function CreditChanges({ changes }: { changes: readonly CreditChange[] }) {
  const headingId = useId();
  return (
    <div>
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Credit changes
      </h3>
      {changes.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="replay-credits-empty">
          No credit changes up to that moment.
        </p>
      ) : (
        <div className="mt-1 max-h-72 overflow-auto rounded-lg border border-slate-200">
          <table className="w-full text-sm" aria-labelledby={headingId} data-testid="replay-credits">
            <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold text-slate-600">
              <tr>
                <th scope="col" className={cell}>
                  Time
                </th>
                <th scope="col" className={cell}>
                  What
                </th>
                <th scope="col" className={cx(cell, 'text-right')}>
                  Change
                </th>
                <th scope="col" className={cx(cell, 'text-right')}>
                  Balance
                </th>
                <th scope="col" className={cx(cell, 'hidden sm:table-cell')}>
                  Card payment
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {changes.map((change, i) => (
                <tr key={`${change.at}-${i}`} data-testid="replay-credit-change" data-kind={change.kind}>
                  <td className={cx(cell, 'align-top text-slate-700')}>
                    <ChangeTime at={change.at} />
                  </td>
                  <td className={cx(cell, 'min-w-0 align-top text-slate-800')}>
                    <span data-testid="credit-change-what">{creditChangeLabel(change)}</span>
                    {change.payment_intent_id ? (
                      <span className="block truncate font-mono text-xs text-slate-600 sm:hidden">
                        {change.payment_intent_id}
                      </span>
                    ) : null}
                  </td>
                  <td
                    className={cx(
                      cell,
                      'text-right align-top font-semibold whitespace-nowrap tabular-nums',
                      change.change > 0 ? 'text-green-700' : change.change < 0 ? 'text-red-700' : 'text-slate-700',
                    )}
                    data-testid="credit-change-amount"
                  >
                    {formatCreditChange(change.change)}
                  </td>
                  <td
                    className={cx(cell, 'text-right align-top whitespace-nowrap text-slate-900 tabular-nums')}
                    data-testid="credit-change-balance"
                  >
                    {formatCredits(change.balance_after)}
                  </td>
                  <td className={cx(cell, 'hidden max-w-[12rem] align-top sm:table-cell')}>
                    {change.payment_intent_id ? (
                      <span
                        className="block truncate font-mono text-xs text-slate-700"
                        title={change.payment_intent_id}
                      >
                        {change.payment_intent_id}
                      </span>
                    ) : (
                      <span className="text-slate-500">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function HistoryResult({ state }: { state: UserStateAt }) {
  const at = Date.parse(state.at);
  const linked = state.tickets.filter((t) => t.distribution).length;
  // Tickets with a link first: they are what a replay is usually for.
  const tickets = [...state.tickets].sort((a, b) => Number(!!b.distribution) - Number(!!a.distribution));
  return (
    <div className="mt-4 space-y-4" data-testid="replay-result" data-at={state.at}>
      <p className="text-sm text-slate-600">
        As it stood on{' '}
        <span className="font-semibold text-slate-900" data-testid="replay-moment">
          {formatMoment(state.at)}
        </span>
      </p>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {[
          ['Balance', creditsOf(state.balance), 'replay-balance'],
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

      <CreditChanges changes={state.credit_changes ?? []} />

      <ReplayAccess access={state.access} />

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
 * Replay (docs/reference.md "User Audit Log screen"): pick a moment, to the second, and see the user's balance and
 * every change of it (admin settings, links paid for, card purchases, refunds, disputes), accounts and tickets with
 * their links as they stood then, folded by the server from the events (GET /v1/admin/users/{id}/history?at=).
 */
export function ReplayPanel({ userId }: { userId: string }) {
  const [moment, setMoment] = useState<CalendarDateTime | null>(() => localDateTimeOf(Date.now(), { seconds: true }));
  const [partial, setPartial] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const onPartialChange = useCallback((value: boolean) => setPartial(value), []);
  /** The moment asked about, for this user. */
  const [asked, setAsked] = useState<{ userId: string; at: string } | null>(null);
  const mine = asked?.userId === userId;
  const query = useQuery({ ...userHistoryQuery(userId, mine ? asked.at : ''), enabled: mine });
  const { data, loading, error } = querySlice(query, HISTORY_FETCH_FAILED);
  const headingId = useId();
  const now = useNow(60_000);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const at = moment && !partial ? instantOf(moment) : null;
    if (!at) {
      setFieldError('Enter a date and time');
      return;
    }
    if (at.getTime() > Date.now() + 60_000) {
      setFieldError('Pick a moment that has passed');
      return;
    }
    setFieldError(null);
    setAsked({ userId, at: at.toISOString() });
  };

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
            Pick a moment to see this user&apos;s balance and its changes, their access, accounts and tickets with their
            links as they stood then.
          </p>
        </div>
      </div>
      <form noValidate onSubmit={submit} className="mt-4 flex flex-wrap items-start gap-3">
        <DatePicker
          label="Moment"
          granularity="second"
          value={moment}
          maxValue={localDateTimeOf(now + 60_000, { seconds: true })}
          onChange={(value) => {
            setMoment(value);
            setFieldError(null);
          }}
          onPartialChange={onPartialChange}
          error={fieldError}
          errorTestId="replay-moment-error"
          className="w-full sm:w-80"
          testId="replay-moment"
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
