import { TOP_UP_TEXTS, type TopUpSummary as Summary } from '../top-up';

/** Amount, credits and the balance after them (docs/reference.md "Top Up Credits dialog"). */
export function TopUpSummary({ summary }: { summary: Summary }) {
  return (
    <dl className="space-y-2 rounded-lg bg-slate-50 p-4 text-sm ring-1 ring-slate-200 ring-inset" aria-live="polite">
      <div className="flex items-center justify-between gap-4">
        <dt className="text-slate-600">Amount</dt>
        <dd className="font-medium text-slate-900 tabular-nums" data-testid="summary-amount">
          {summary.amount}
        </dd>
      </div>
      <div className="flex items-center justify-between gap-4">
        <dt className="text-slate-600">Credits</dt>
        <dd className="font-medium text-slate-900 tabular-nums" data-testid="summary-credits">
          {summary.credits}
        </dd>
      </div>
      <div className="flex items-center justify-between gap-4 border-t border-slate-200 pt-2">
        <dt className="font-medium text-slate-900">{TOP_UP_TEXTS.newBalance}</dt>
        <dd className="font-semibold whitespace-nowrap text-slate-900 tabular-nums" data-testid="summary-new-balance">
          {summary.newBalance}
        </dd>
      </div>
    </dl>
  );
}
