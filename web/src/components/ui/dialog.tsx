import { lazy, Suspense } from 'react';
import { loadChunk } from '../../lib/lazy-route';
import type { DialogProps } from './react-aria/dialog';
import { chunkLoader } from '../../lib/chunk-loader';

export type { DialogProps } from './react-aria/dialog';

const loadDialog = chunkLoader(() => loadChunk(() => import('./react-aria/dialog')));
const AriaDialog = lazy(async () => ({ default: (await loadDialog()).Dialog }));

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
