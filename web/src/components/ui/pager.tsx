import type { Pagination } from '@seatlink/contracts';
import { Button } from './button';

/** Previous / next paging for a {page, limit, total} list. */
export function Pager({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  const { page, limit, total } = pagination;
  const pages = Math.max(1, Math.ceil(total / Math.max(1, limit)));
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-4 text-sm text-slate-600">
      <p>
        Page {Math.min(page, pages)} of {pages}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
