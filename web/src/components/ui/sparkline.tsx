import { sparklineShape, type ClickMinute } from '../../lib/sparkline';
import { cx } from './cx';

export interface SparklineProps {
  minutes: readonly ClickMinute[];
  /** Epoch ms: the right edge. */
  now: number;
  /** What the chart says, for assistive technology (it is an image to them). */
  label: string;
  width?: number;
  height?: number;
  className?: string;
  testId?: string;
}

/** A tiny inline-SVG step chart of a running click total (lib/sparkline.ts draws it). */
export function Sparkline({ minutes, now, label, width = 64, height = 18, className, testId }: SparklineProps) {
  const shape = sparklineShape(minutes, now, width, height);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className={cx('shrink-0 overflow-visible', shape.total > 0 ? 'text-indigo-600' : 'text-slate-400', className)}
      data-testid={testId}
      data-total={shape.total}
    >
      <title>{label}</title>
      {shape.total > 0 ? <path d={shape.area} className="fill-indigo-100" /> : null}
      <path
        d={shape.line}
        fill="none"
        stroke="currentColor"
        strokeDasharray={shape.total > 0 ? undefined : '2 3'}
        strokeWidth={1.5}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
