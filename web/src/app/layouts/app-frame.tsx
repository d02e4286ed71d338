import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../components/ui/alert';
import { Brand } from '../../components/ui/brand';
import { Dialog } from '../../components/ui/dialog';
import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { NotificationBell } from '../../features/notifications/notification-bell';
import { StepUpDialogHost } from '../../features/security/components/step-up-dialog';
import { useLiveUpdatesInterrupted } from '../../lib/realtime';
import { Sidebar } from './sidebar';

/** Said while live updates do not reach the page; it reads its data again when they resume. */
export const LIVE_UPDATES_PAUSED =
  'Live updates are paused: what you see may be out of date. It refreshes when they resume.';

const DRAWER_ID = 'mobile-navigation';

/**
 * The small-screen navigation: the sidebar in a modal `<dialog>` sliding in from the left. Focus moves into it (the
 * close button) and stays there; Escape, the backdrop, the close button or following a link close it, and focus goes
 * back to the menu button.
 */
function MobileDrawer({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      id={DRAWER_ID}
      aria-label="Menu"
      onClose={onClose}
      initialFocusRef={closeRef}
      className="fixed inset-y-0 right-auto left-0 m-0 h-full max-h-none w-72 max-w-[85vw] bg-white p-0 shadow-xl backdrop:bg-slate-900/50 motion-safe:animate-slide-in motion-safe:backdrop:animate-fade-in"
    >
      <div className="relative flex h-full flex-col">
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          aria-label="Close menu"
          className="absolute top-4 right-3 z-10 rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <CloseIcon />
        </button>
        <Sidebar onNavigate={onClose} />
      </div>
    </Dialog>
  );
}

/**
 * The signed-in frame: a fixed sidebar on wide screens; on small screens a top bar with a menu button that opens the
 * sidebar as a slide-in drawer.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const liveInterrupted = useLiveUpdatesInterrupted();

  // The drawer is for small screens: widened past the md breakpoint (where the sidebar shows), it closes, so a modal
  // dialog never sits over the page unseen.
  useEffect(() => {
    if (!drawerOpen) return;
    const wide = window.matchMedia('(min-width: 768px)');
    const onChange = () => {
      if (wide.matches) setDrawerOpen(false);
    };
    onChange();
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [drawerOpen]);

  return (
    <div className="min-h-screen bg-slate-50">
      <aside className="hidden border-r border-slate-200 md:fixed md:inset-y-0 md:flex md:w-64 md:flex-col">
        <Sidebar />
      </aside>

      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4 md:hidden">
        <button
          type="button"
          onClick={() => setDrawerOpen(true)}
          aria-label="Open menu"
          aria-expanded={drawerOpen}
          aria-controls={DRAWER_ID}
          className="-ml-1.5 rounded-lg p-1.5 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
        >
          <MenuIcon />
        </button>
        <Brand />
        <NotificationBell className="ml-auto" />
      </header>

      {drawerOpen ? <MobileDrawer onClose={closeDrawer} /> : null}

      <div className="md:pl-64">
        {liveInterrupted ? (
          <Alert tone="warning" className="mx-4 mt-4 sm:mx-6 lg:mx-8" data-testid="live-updates-paused">
            {LIVE_UPDATES_PAUSED}
          </Alert>
        ) : null}
        <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">{children}</main>
        <StepUpDialogHost />
      </div>
    </div>
  );
}
