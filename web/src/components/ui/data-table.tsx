import type { ReactNode } from 'react';
import { Alert } from './alert';

export interface DataTableProps<T> {
  columns: readonly string[];
  rows: readonly T[];
  loading: boolean;
  error: string | null;
  /** The empty state's text (docs/reference.md "Success and empty texts"). */
  emptyText: string;
  /** Test handles: `<prefix>-table`, `<prefix>-error`, `<prefix>-empty`. */
  testIdPrefix: string;
  renderRow: (row: T) => ReactNode;
}

/**
 * A table with its error, first-load and empty states. On a phone each row is a card (`stack-table`, index.css): rows
 * give their cells a `data-label` (the column's name, written above the value) and `stack-full` for the card's whole
 * width.
 */
export function DataTable<T>({ columns, rows, loading, error, emptyText, testIdPrefix, renderRow }: DataTableProps<T>) {
  const message = (content: ReactNode, testId?: string) => (
    <tr>
      <td colSpan={columns.length} className="px-4 py-10 text-center text-sm text-slate-500" data-testid={testId}>
        {content}
      </td>
    </tr>
  );
  let body: ReactNode;
  if (error) {
    body = (
      <tr>
        <td colSpan={columns.length} className="px-4 py-6">
          <Alert tone="error" data-testid={`${testIdPrefix}-error`}>
            {error}
          </Alert>
        </td>
      </tr>
    );
  } else if (loading && rows.length === 0) {
    body = message('Loading...');
  } else if (rows.length === 0) {
    body = message(emptyText, `${testIdPrefix}-empty`);
  } else {
    body = rows.map(renderRow);
  }

  return (
    // `relative`: visually hidden labels (position: absolute) inside cells stay inside the scrolling box instead of
    // widening the page.
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table
        className="stack-table min-w-full divide-y divide-slate-200 text-sm"
        data-testid={`${testIdPrefix}-table`}
        aria-busy={loading}
      >
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                className="px-3 py-3 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase"
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{body}</tbody>
      </table>
    </div>
  );
}
