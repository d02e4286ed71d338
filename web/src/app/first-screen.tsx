import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { pages } from '@seatlink/contracts';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { LoginPage } from '../features/auth/login.page';
import { TicketsOverviewHeader } from '../features/tickets/components/tickets-overview-header';
import { DrawingFirstScreen, FIRST_SCREEN_ID } from '../lib/first-screen';
import { AppFrame } from './layouts/app-frame';

/**
 * What a page paints with its HTML, before any script has run (lib/first-screen.ts): the signed-in frame and, where
 * it says the same to everyone, the page's heading; the sign-in page whole (it says the same to everyone). Rendered by
 * the build (vite.page-speed.ts `pageChunks`) from the app's own components, so it lies exactly where the app then
 * draws them: on a phone's network the page's heading showed only once the scripts had downloaded and run, and the
 * session had been read.
 */
const FIRST_SCREENS: Partial<Record<string, ReactNode>> = {
  [pages.dashboard]: (
    <AppFrame>
      <TicketsOverviewHeader />
    </AppFrame>
  ),
  [pages.accounts]: <AppFrame>{null}</AppFrame>,
  [pages.accountTickets]: <AppFrame>{null}</AppFrame>,
  [pages.login]: <LoginPage />,
};

/** The first screen of `page` (one of the contracts' `pages`) as HTML; undefined for a page that has none. */
export function renderFirstScreen(page: string): string | undefined {
  if (!(page in FIRST_SCREENS)) return undefined;
  return renderToStaticMarkup(
    // Over the app, inert and hidden from assistive technology (never focused, never read out: the page's heading is
    // the app's), until the app shows the page itself.
    <div id={FIRST_SCREEN_ID} inert aria-hidden="true" className="fixed inset-0 z-50 overflow-hidden">
      <MemoryRouter initialEntries={[page.replace(/:[\w-]+/g, '_')]}>
        <QueryClientProvider client={new QueryClient()}>
          <DrawingFirstScreen value>{FIRST_SCREENS[page]}</DrawingFirstScreen>
        </QueryClientProvider>
      </MemoryRouter>
    </div>,
  );
}
