import { useMemo, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { CloseIcon } from '../../../components/ui/icons';
import { useTickets } from '../hooks/use-tickets';
import { useTicketsStore, type DistributionProblem } from '../tickets.store';

/** A dismissible red box above the tickets: a distribution or a recall that failed, and why. */
function ProblemAlert({ testId, onDismiss, children }: { testId: string; onDismiss: () => void; children: ReactNode }) {
  return (
    <Alert tone="error" className="mb-4 flex items-start justify-between gap-3" data-testid={testId}>
      <div className="min-w-0">{children}</div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="-m-1 shrink-0 rounded p-1 text-red-700 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-600"
      >
        <CloseIcon className="h-4 w-4" />
      </button>
    </Alert>
  );
}

/**
 * Why a distribution failed: the headline (the server's message, or 'Failed to generate distribution link'), the
 * tickets it names, and each other ticket refused with its own reason.
 */
function DistributionProblemText({
  problem,
  titleOf,
}: {
  problem: DistributionProblem;
  titleOf: ReadonlyMap<string, string>;
}) {
  const title = (ticketId: string) => titleOf.get(ticketId) ?? 'A ticket';
  const sameReason = problem.failed.filter((f) => f.message === problem.message);
  const otherReasons = problem.failed.filter((f) => f.message !== problem.message);
  return (
    <>
      <p className="font-medium">{problem.message}</p>
      {sameReason.length > 0 ? (
        <p className="mt-1" data-testid="distribution-error-tickets">
          Not distributed: {sameReason.map((f) => title(f.ticket_id)).join(', ')}
        </p>
      ) : null}
      {otherReasons.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {otherReasons.map((failure) => (
            <li key={failure.ticket_id}>
              {title(failure.ticket_id)}: {failure.message}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** The last distribution's or recall's failure above the tickets, until it is dismissed. */
export function TicketProblems() {
  const { tickets } = useTickets();
  const distributionProblem = useTicketsStore((s) => s.distributionProblem);
  const recallProblem = useTicketsStore((s) => s.recallProblem);
  const { setDistributionProblem, setRecallProblem } = useTicketsStore.getState();
  const anyProblem = distributionProblem !== null || recallProblem !== null;
  // Titles are looked up only while there is a problem to name tickets in.
  const titleOf = useMemo(() => new Map(anyProblem ? tickets.map((t) => [t.id, t.title]) : []), [tickets, anyProblem]);

  return (
    <>
      {distributionProblem ? (
        <ProblemAlert testId="distribution-error" onDismiss={() => setDistributionProblem(null)}>
          <DistributionProblemText problem={distributionProblem} titleOf={titleOf} />
        </ProblemAlert>
      ) : null}
      {recallProblem ? (
        <ProblemAlert testId="recall-error" onDismiss={() => setRecallProblem(null)}>
          <p>
            {titleOf.has(recallProblem.ticketId) ? `${titleOf.get(recallProblem.ticketId)}: ` : null}
            {recallProblem.message}
          </p>
        </ProblemAlert>
      ) : null}
    </>
  );
}
