import { Alert } from '../../../components/ui/alert';
import type { BatchOutcome } from '../batch-outcome';

/**
 * What a batch add did, above the accounts left in the form: with some added, how many (amber, a status) and each
 * account that was not, with why; with none added, 'Failed to add accounts' (red, an alert) and each reason.
 */
export function BatchAddResult({ outcome }: { outcome: BatchOutcome }) {
  const none = outcome.kind === 'none';
  return (
    <Alert tone={none ? 'error' : 'warning'} data-testid="batch-results" data-outcome={outcome.kind}>
      <p className="font-semibold" data-testid="batch-results-title">
        {outcome.title}
      </p>
      {none ? null : <p className="mt-1">These could not be added:</p>}
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {outcome.failed.map((failure, index) => (
          <li key={`${index}:${failure.email}`} data-testid="batch-result" data-email={failure.email}>
            <span className="font-medium break-all">{failure.email}</span>: {failure.reason}
          </li>
        ))}
      </ul>
      <p className="mt-2">Correct the details below and try again.</p>
    </Alert>
  );
}
