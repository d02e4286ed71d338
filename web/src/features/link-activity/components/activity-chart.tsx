import { LINK_ACTIVITY_TEXTS, type LinkActivityDay } from '@seatlink/contracts';
import { formatDate } from '../../../lib/format';
import { activityBars } from '../activity-bars';

const WIDTH = 600;
const HEIGHT = 120;

/**
 * Opens and claims by day, as pairs of bars (opens indigo, claims green): an inline SVG, as the click sparkline is,
 * with the totals in its label for assistive technology.
 */
export function ActivityChart({ days }: { days: readonly LinkActivityDay[] }) {
  const bars = activityBars(days, WIDTH, HEIGHT);
  const opens = days.reduce((n, d) => n + d.opens, 0);
  const claims = days.reduce((n, d) => n + d.claims, 0);
  const slot = days.length > 0 ? WIDTH / days.length : WIDTH;
  const barWidth = Math.max(1, slot * 0.35);
  const label = `${LINK_ACTIVITY_TEXTS.chartTitle}: ${LINK_ACTIVITY_TEXTS.opens} ${opens}, ${LINK_ACTIVITY_TEXTS.claims} ${claims}`;
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4">
      <figcaption className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-semibold text-slate-900">{LINK_ACTIVITY_TEXTS.chartTitle}</span>
        <span className="flex items-center gap-4 text-slate-600">
          <span className="flex items-center gap-1.5">
            <span className="inline-block h-2.5 w-2.5 rounded-sm bg-indigo-500" aria-hidden="true" />
            {LINK_ACTIVITY_TEXTS.opens} <strong data-testid="activity-opens">{opens}</strong>
          </span>
          <span className="flex items-center gap-1.5">
            <span className="inline-block h-2.5 w-2.5 rounded-sm bg-green-600" aria-hidden="true" />
            {LINK_ACTIVITY_TEXTS.claims} <strong data-testid="activity-claims">{claims}</strong>
          </span>
        </span>
      </figcaption>
      {opens + claims === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500" data-testid="activity-none">
          {LINK_ACTIVITY_TEXTS.noActivity}
        </p>
      ) : null}
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-32 w-full"
        data-testid="activity-chart"
      >
        <title>{label}</title>
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-200" strokeWidth={1} />
        {bars.map((b) => (
          <g key={b.day}>
            <title>{`${formatDate(b.day)}: ${LINK_ACTIVITY_TEXTS.opens} ${b.opens.value}, ${LINK_ACTIVITY_TEXTS.claims} ${b.claims.value}`}</title>
            <rect
              x={b.x + slot * 0.1}
              y={b.opens.y}
              width={barWidth}
              height={b.opens.height}
              className="fill-indigo-500"
            />
            <rect
              x={b.x + slot * 0.1 + barWidth}
              y={b.claims.y}
              width={barWidth}
              height={b.claims.height}
              className="fill-green-600"
            />
          </g>
        ))}
      </svg>
    </figure>
  );
}
