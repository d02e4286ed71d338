import { Alert } from './alert';
import { Button } from './button';

/** A list that could not be loaded: the message, and a way to load it again. */
export function LoadFailed({ message, onRetry, testId }: { message: string; onRetry: () => void; testId: string }) {
  return (
    <Alert tone="error" className="flex flex-wrap items-center justify-between gap-3" data-testid={testId}>
      <span>{message}</span>
      <Button size="sm" variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}

/** A list on its way (`busy`); the line stays, empty, while nothing is under way, so screen readers hear the change. */
export function LoadingStatus({ busy = true }: { busy?: boolean }) {
  return (
    <p role="status" className="py-12 text-center text-sm text-slate-600">
      {busy ? 'Loading...' : null}
    </p>
  );
}
