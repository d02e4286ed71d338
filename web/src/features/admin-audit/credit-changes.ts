import type { CreditChange } from '@seatlink/contracts';

/**
 * How the replay panel names a change of a user's credits (GET /v1/admin/users/{id}/history `credit_changes`): what it
 * was, and the change with its sign.
 */

const REVERSAL_REASONS: Record<string, string> = {
  refund: 'Taken back: card payment refunded',
  dispute_lost: 'Taken back: card dispute lost',
};

/**
 * What a change was: 'Set by admin@seatlink.test: “Goodwill”', 'Spent on links', 'Bought by card'... A set recorded
 * before reasons were asked for says so.
 */
export function creditChangeLabel(change: Pick<CreditChange, 'kind' | 'reason'> & { by?: string | null }): string {
  switch (change.kind) {
    case 'set':
      return `Set by ${change.by ?? 'an admin'}: ${change.reason ? `“${change.reason}”` : 'no reason recorded'}`;
    case 'spent':
      return 'Spent on links';
    case 'given_back':
      return 'Given back for links not made';
    case 'purchased':
      return 'Bought by card';
    case 'reversed':
      return (change.reason && REVERSAL_REASONS[change.reason]) || 'Taken back';
    case 'disputed':
      return 'Card payment disputed';
    default:
      return change.reason ?? 'Changed';
  }
}

const signed = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2, signDisplay: 'exceptZero' });

/** The change with its sign: '+25', '-10', '0' (a dispute opened moves nothing yet). */
export function formatCreditChange(change: number): string {
  return signed.format(change);
}
