/**
 * A link's click timeline as a small step chart: the running total of counted clicks over time, from an hour before
 * the first click (or the last hour, when the first click is more recent) to now. Pure, so the drawing is tested.
 */

export interface ClickMinute {
  /** ISO start of the minute. */
  minute: string;
  clicks: number;
}

export interface SparklineShape {
  /** SVG path of the running total (a step line). */
  line: string;
  /** The same, closed along the bottom edge, for a fill. */
  area: string;
  /** Clicks the minutes hold. */
  total: number;
  /** Epoch ms of the last minute with a click, or null. */
  lastClickAt: number | null;
}

const MIN_SPAN_MS = 60 * 60 * 1000;

const round = (n: number) => Math.round(n * 100) / 100;

/** The step line of the running click total, drawn into `width` × `height` with `pad` px kept clear at each edge. */
export function sparklineShape(
  minutes: readonly ClickMinute[],
  now: number,
  width: number,
  height: number,
  pad = 1.5,
): SparklineShape {
  const points = minutes
    .map((m) => ({ at: Date.parse(m.minute), clicks: m.clicks }))
    .filter((p) => Number.isFinite(p.at) && p.clicks > 0)
    .sort((a, b) => a.at - b.at);
  const total = points.reduce((sum, p) => sum + p.clicks, 0);
  const bottom = height - pad;
  const left = pad;
  const right = width - pad;
  if (points.length === 0) {
    const line = `M${round(left)} ${round(bottom)}H${round(right)}`;
    return { line, area: `${line}V${round(bottom)}H${round(left)}Z`, total: 0, lastClickAt: null };
  }
  const first = points[0]!.at;
  const last = points[points.length - 1]!.at;
  const end = Math.max(now, last + 60_000);
  const start = Math.min(first - 60_000, end - MIN_SPAN_MS);
  const x = (t: number) => left + ((t - start) / (end - start)) * (right - left);
  const y = (n: number) => bottom - (n / total) * (bottom - pad);

  let running = 0;
  let line = `M${round(left)} ${round(bottom)}`;
  for (const point of points) {
    running += point.clicks;
    line += `H${round(x(point.at))}V${round(y(running))}`;
  }
  line += `H${round(right)}`;
  return { line, area: `${line}V${round(bottom)}H${round(left)}Z`, total, lastClickAt: last };
}
