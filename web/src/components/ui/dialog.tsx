import { Suspense } from 'react';
import type { DialogProps } from './react-aria/dialog';
import { lazyChunk } from '../../lib/chunk-loader';

export type { DialogProps } from './react-aria/dialog';

const AriaDialog = lazyChunk(
  () => import('./react-aria/dialog'),
  (m) => m.Dialog,
);

/**
 * A modal dialog while mounted (React Aria's, see react-aria/dialog.tsx): the page behind it out of reach, focus kept
 * inside, Escape and a click on the backdrop close it, and focus goes back to its opener on unmount. Its code is a
 * chunk of its own, off the first load of a page; it shows once that chunk is in (normally fetched at the page's
 * first interaction, before anything opens).
 */
export function Dialog(props: DialogProps) {
  return (
    <Suspense fallback={null}>
      <AriaDialog {...props} />
    </Suspense>
  );
}
