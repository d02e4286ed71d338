import type { ReactNode } from 'react';
import { copyWithToast } from '../../lib/clipboard';
import { Alert } from './alert';
import { Button } from './button';

/**
 * A secret just made (an API key, a signing secret), shown this once: a warning that says so, the value to copy, and
 * Done (after which it is never shown again).
 */
export function ShownOnce({
  warning,
  value,
  what,
  testId,
  valueTestId,
  onDone,
}: {
  warning: ReactNode;
  value: string;
  /** What it is, in the copy's toasts ("key" → "Key copied", "Could not copy the key"). */
  what: string;
  testId: string;
  valueTestId: string;
  onDone: () => void;
}) {
  const copied = `${what.charAt(0).toUpperCase()}${what.slice(1)} copied`;
  return (
    <div className="mt-4 space-y-3" data-testid={testId}>
      <Alert tone="warning">{warning}</Alert>
      <code
        className="block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
        data-testid={valueTestId}
      >
        {value}
      </code>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          onClick={() => void copyWithToast(value, { copied, failed: `Could not copy the ${what}` })}
        >
          Copy
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
