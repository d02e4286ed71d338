import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { TopUpModal } from './components/top-up-modal';

/** The Top Up button of the Available Credits card: opens the Top Up Credits modal (SPEC.md §2). */
export function TopUpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="top-up-button">
        Top Up
      </Button>
      {open ? <TopUpModal onClose={() => setOpen(false)} /> : null}
    </>
  );
}
