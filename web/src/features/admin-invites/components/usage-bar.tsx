import { cx } from '../../../components/ui/cx';
import { usageLevel, usagePercent, type UsageLevel } from '../invite-codes';

const fills: Record<UsageLevel, string> = {
  red: 'bg-red-500',
  yellow: 'bg-yellow-400',
  green: 'bg-green-500',
};

/** 'used / max_uses' and a bar coloured by how much is used (docs/reference.md "Limits and constants"). */
export function UsageBar({ used, maxUses, label }: { used: number; maxUses: number; label: string }) {
  const level = usageLevel(used, maxUses);
  const percent = usagePercent(used, maxUses);
  return (
    <div className="flex items-center gap-3">
      <span className="min-w-16 text-sm text-slate-700 tabular-nums" data-testid="invite-usage">
        {used} / {maxUses}
      </span>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={maxUses}
        aria-valuenow={Math.min(used, maxUses)}
        aria-valuetext={`${used} of ${maxUses} uses`}
        data-testid="usage-bar"
        data-level={level}
        className="h-2 w-20 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={cx('h-full rounded-full', fills[level])} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
