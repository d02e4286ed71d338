import { Sparkline } from '../../../components/ui/sparkline';
import { formatDateTime } from '../../../lib/format';
import { useClickTimeline } from '../hooks/use-click-timeline';

/**
 * A link's click timeline (beyond the spec): its running click total over time, from GET /v1/distributions/{id}/clicks,
 * read again when the link's count changes (a live push).
 */
export function ClickSparkline({
  distributionId,
  clicks,
  now,
}: {
  distributionId: string;
  clicks: number;
  now: number;
}) {
  const timeline = useClickTimeline(distributionId, clicks);

  const minutes = timeline?.minutes ?? [];
  const last = minutes.length > 0 ? minutes[minutes.length - 1]!.minute : null;
  const label =
    clicks === 0
      ? 'Click timeline: no clicks yet'
      : `Click timeline: ${clicks} ${clicks === 1 ? 'click' : 'clicks'}${last ? `, the last at ${formatDateTime(last)}` : ''}`;
  return <Sparkline minutes={minutes} now={now} label={label} width={64} testId="click-sparkline" />;
}
