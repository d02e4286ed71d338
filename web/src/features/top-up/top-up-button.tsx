import { Suspense, useState } from 'react';
import { Button } from '../../components/ui/button';
import { lazyChunk } from '../../lib/chunk-loader';

/** The modal (its form, amounts and payment rules) is a chunk of its own, off the overview's first load. */
const TopUpModal = lazyChunk(
  () => import('./components/top-up-modal'),
  (m) => m.TopUpModal,
);

/**
 * The Top Up button of the Available Credits card: opens the Top Up Credits modal
 * (docs/reference.md "Top Up Credits dialog").
 */
export function TopUpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="top-up-button">
        Top Up
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <TopUpModal onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
