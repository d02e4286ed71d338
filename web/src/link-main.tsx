import { QueryClientProvider } from '@tanstack/react-query';
import { linkCodeAt } from '@seatlink/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LinkPage } from './features/links/link.page';
import { createQueryClient } from './lib/create-query-client';
import { startTheme } from './lib/theme';
import './link.css';

/*
 * The entry of a shared ticket's page (link.html, which the server answers for /l/{code}). The recipient is not
 * signed in and goes nowhere else in the app, so this renders the link page alone: no router, no session check, no
 * sign-in page, no live updates. The app's own entry (main.tsx) would download all of those before the page could
 * start, on what is most often a phone's network. The link's data is already on its way (the server's preload of
 * GET /v1/links/{code}, services/server web-app.ts) while this downloads.
 */

// The theme switch and the system's preference are followed from here on (theme-boot.js set the first paint's).
startTheme();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <LinkPage code={linkCodeAt(window.location.pathname)} />
    </QueryClientProvider>
  </StrictMode>,
);
