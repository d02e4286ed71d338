import { Sparkline } from '../../../components/ui/sparkline';
import { countOf, formatDateTime } from '../../../lib/format';
import { useClickTimeline } from '../hooks/use-click-timeline';

/**
 * A link's click timeline (docs/user-guide.md "Tickets Overview"): its running click total over time, from
 * GET /v1/distributions/{id}/clicks, read again when the link's count changes (a live push).
 */
export function ClickSparkline({
  distributionId,
  clicks,
  now,
  linkLabel = null,
}: {
  distributionId: string;
  clicks: number;
  now: number;
  /** The link's label, which names the timeline ('Click timeline of for Sam: …'). */
  linkLabel?: string | null;
}) {
  const timeline = useClickTimeline(distributionId, clicks);

  const minutes = timeline?.minutes ?? [];
  const last = minutes.length > 0 ? minutes[minutes.length - 1]!.minute : null;
  const name = linkLabel ? `Click timeline of ${linkLabel}` : 'Click timeline';
  const label =
    clicks === 0
      ? `${name}: no clicks yet`
      : `${name}: ${countOf(clicks, 'click')}${last ? `, the last at ${formatDateTime(last)}` : ''}`;
  return <Sparkline minutes={minutes} now={now} label={label} width={64} testId="click-sparkline" />;
}
