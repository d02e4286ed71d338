import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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

interface ListedLink {
  distribution_id: string;
  title: string | null;
  label: string | null;
}

/**
 * One of the page's lists of links (`id` names its heading, list, items and empty state for tests and readers): each
 * link by its name, with what `detail` says of it.
 */
function LinkSection<L extends ListedLink>({
  id,
  title,
  empty,
  links,
  detail,
}: {
  id: string;
  title: string;
  empty: string;
  links: readonly L[];
  detail: (link: L) => ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {links.length === 0 ? (
        <EmptyState title={empty} testId={`${id}-empty`} />
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" data-testid={id}>
          {links.map((link) => (
            <li
              key={link.distribution_id}
              className="flex items-center justify-between gap-4 px-4 py-3 text-sm"
              data-testid={`${id}-link`}
              data-distribution-id={link.distribution_id}
            >
              <LinkName title={link.title} label={link.label} />
              {detail(link)}
            </li>
          ))}
        </ul>
      )}
    </section>
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
        <LinkSection
          id="opened-not-claimed"
          title={LINK_ACTIVITY_TEXTS.openedNotClaimed}
          empty={LINK_ACTIVITY_TEXTS.openedNotClaimedEmpty}
          links={activity.opened_not_claimed}
          detail={(link) => (
            <span className="shrink-0 text-slate-600">
              {LINK_ACTIVITY_TEXTS.opensCount(link.opens)} · {formatDateTime(link.last_open_at)}
            </span>
          )}
        />
        <LinkSection
          id="expiring-unclaimed"
          title={LINK_ACTIVITY_TEXTS.expiringUnclaimed}
          empty={LINK_ACTIVITY_TEXTS.expiringUnclaimedEmpty}
          links={activity.expiring_unclaimed}
          detail={(link) => <span className="shrink-0 text-amber-700">{formatDateTime(link.expires_at)}</span>}
        />
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
