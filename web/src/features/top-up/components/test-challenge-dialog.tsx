import { useRef } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatGBP } from '../../../lib/format';
import type { TestAuthenticationOutcome } from '../api/authenticate-test-payment';

export interface TestChallengeDialogProps {
  /** Pounds. */
  amount: number;
  /** The answer is on its way: both buttons wait. */
  busy: boolean;
  onAnswer: (outcome: TestAuthenticationOutcome) => void;
}

/**
 * The test gateway's 3-D Secure step, in the manner of Stripe's test authentication page: the payer completes or
 * fails it. Closing it (Escape, the backdrop) fails it, as closing the bank's window does.
 */
export function TestChallengeDialog({ amount, busy, onAnswer }: TestChallengeDialogProps) {
  const completeRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title="3-D Secure"
      description="Your bank asks you to confirm this payment."
      onClose={() => {
        if (!busy) onAnswer('fail');
      }}
      initialFocusRef={completeRef}
      testId="three-d-secure"
    >
      <div className="space-y-4">
        <Badge tone="amber">Test mode</Badge>
        <p className="text-sm text-slate-700">
          This is a test authentication of a payment of{' '}
          <span className="font-semibold text-slate-900">{formatGBP(amount)}</span> to Seatlink. Complete it to let the
          payment go through, or fail it to see a refused authentication.
        </p>
        <div className="flex flex-col-reverse gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => onAnswer('fail')}>
            Fail authentication
          </Button>
          <Button ref={completeRef} disabled={busy} aria-busy={busy || undefined} onClick={() => onAnswer('approve')}>
            Complete authentication
          </Button>
        </div>
      </div>
    </Modal>
  );
}
