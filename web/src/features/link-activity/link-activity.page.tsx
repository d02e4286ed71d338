import { useQuery } from '@tanstack/react-query';
import { DEFAULT_ACTIVITY_DAYS, LINK_ACTIVITY_TEXTS } from '@seatlink/contracts';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { PageHeader } from '../../components/ui/page-header';
import { formatDateTime } from '../../lib/format';
import { getLinkActivity } from './api/get-link-activity';
import { ActivityChart } from './components/activity-chart';

/** The activity is read again this often while the page is open (opens and claims come in as recipients act). */
const REFRESH_MS = 15_000;

/** A link as the lists name it: its ticket's title and its label. */
function LinkName({ title, label }: { title: string | null; label: string | null }) {
  return (
    <span className="min-w-0 truncate">
      <span className="font-medium text-slate-900">{title ?? '—'}</span>
      {label ? <span className="text-slate-500"> · {label}</span> : null}
    </span>
  );
}

/**
 * /dashboard/activity: what happened to the user's links (docs/user-guide.md "Link activity") — opens (one per device;
 * bots and link previews left out) and claims by day, the links opened and not claimed, the links expiring unclaimed.
 */
export function LinkActivityPage() {
  const query = useQuery({
    queryKey: ['links', 'activity', DEFAULT_ACTIVITY_DAYS],
    queryFn: () => getLinkActivity(DEFAULT_ACTIVITY_DAYS),
    refetchInterval: REFRESH_MS,
  });
  const activity = query.data;

  let content;
  if (!activity && query.isError) {
    content = (
      <LoadFailed
        message={LINK_ACTIVITY_TEXTS.loadFailed}
        onRetry={() => void query.refetch()}
        testId="activity-error"
      />
    );
  } else if (!activity) {
    content = <LoadingStatus />;
  } else {
    content = (
      <div className="space-y-6">
        <ActivityChart days={activity.days} />
        <section aria-labelledby="opened-not-claimed" className="space-y-2">
          <h2 id="opened-not-claimed" className="text-base font-semibold text-slate-900">
            {LINK_ACTIVITY_TEXTS.openedNotClaimed}
          </h2>
          {activity.opened_not_claimed.length === 0 ? (
            <EmptyState title={LINK_ACTIVITY_TEXTS.openedNotClaimedEmpty} testId="opened-not-claimed-empty" />
          ) : (
            <ul
              className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
              data-testid="opened-not-claimed"
            >
              {activity.opened_not_claimed.map((link) => (
                <li
                  key={link.distribution_id}
                  className="flex items-center justify-between gap-4 px-4 py-3 text-sm"
                  data-testid="opened-not-claimed-link"
                  data-distribution-id={link.distribution_id}
                >
                  <LinkName title={link.title} label={link.label} />
                  <span className="shrink-0 text-slate-600">
                    {LINK_ACTIVITY_TEXTS.opensCount(link.opens)} · {formatDateTime(link.last_open_at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="expiring-unclaimed" className="space-y-2">
          <h2 id="expiring-unclaimed" className="text-base font-semibold text-slate-900">
            {LINK_ACTIVITY_TEXTS.expiringUnclaimed}
          </h2>
          {activity.expiring_unclaimed.length === 0 ? (
            <EmptyState title={LINK_ACTIVITY_TEXTS.expiringUnclaimedEmpty} testId="expiring-unclaimed-empty" />
          ) : (
            <ul
              className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
              data-testid="expiring-unclaimed"
            >
              {activity.expiring_unclaimed.map((link) => (
                <li
                  key={link.distribution_id}
                  className="flex items-center justify-between gap-4 px-4 py-3 text-sm"
                  data-testid="expiring-unclaimed-link"
                  data-distribution-id={link.distribution_id}
                >
                  <LinkName title={link.title} label={link.label} />
                  <span className="shrink-0 text-amber-700">{formatDateTime(link.expires_at)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    );
  }

  return (
    <div>
      <PageHeader title={LINK_ACTIVITY_TEXTS.title} subtitle={LINK_ACTIVITY_TEXTS.intro} />
      {content}
    </div>
  );
}
