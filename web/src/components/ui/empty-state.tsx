import type { ReactNode } from 'react';

/**
 * A dashed panel for a list with nothing in it: the empty-state text (docs/reference.md "Success and empty texts") and,
 * optionally, what to do next.
 */
export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div
      className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center"
      data-testid={testId}
    >
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {children ? <div className="mx-auto mt-2 max-w-md text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}
