import type { Account } from '@seatlink/contracts';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatCount, formatShare } from '../../../lib/format';
import { distributionPercent, distributionTone } from '../account-rules';

/**
 * How much of an account is distributed: the bar is green at 100 %, blue above 50 %, else yellow
 * (docs/reference.md "Limits and constants").
 */
export function DistributionBar({
  account,
}: {
  account: Pick<Account, 'email' | 'ticket_count' | 'distributed_count'>;
}) {
  const percent = distributionPercent(account);
  const share = formatShare(account.distributed_count, account.ticket_count);
  const tone = distributionTone(percent);
  const summary = `${formatCount(account.distributed_count)} of ${formatCount(account.ticket_count)} distributed`;
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between text-xs text-slate-600">
        <span>Distribution</span>
        <span className="font-medium text-slate-700 tabular-nums" data-testid="distribution-percent">
          {share}
        </span>
      </div>
      <ProgressBar
        value={account.distributed_count}
        max={Math.max(1, account.ticket_count)}
        tone={tone}
        label={`Distribution of ${account.email}`}
        valueText={summary}
        testId="distribution-bar"
      />
    </div>
  );
}
