import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Brand } from '../../components/ui/brand';
import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { Sidebar } from './sidebar';

const DRAWER_ID = 'mobile-navigation';

function MobileDrawer({ onClose }: { onClose: () => void }) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-40 md:hidden" id={DRAWER_ID} role="dialog" aria-modal="true" aria-label="Menu">
      <div className="absolute inset-0 animate-fade-in bg-slate-900/50" aria-hidden="true" onClick={onClose} />
      <div className="relative flex h-full w-72 max-w-[85vw] animate-slide-in flex-col shadow-xl">
        <button
          type="button"
          onClick={onClose}
          aria-label="Close menu"
          className="absolute top-4 right-3 z-10 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        >
          <CloseIcon />
        </button>
        <Sidebar onNavigate={onClose} />
      </div>
    </div>
  );
}

/**
 * The signed-in frame: a fixed sidebar on wide screens; on small screens a top bar with a menu button that opens the
 * sidebar as a slide-in drawer.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

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
          className="-ml-1.5 rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <MenuIcon />
        </button>
        <Brand />
      </header>

      {drawerOpen ? <MobileDrawer onClose={closeDrawer} /> : null}

      <div className="md:pl-64">
        <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">{children}</main>
      </div>
    </div>
  );
}
