import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { appRouter } from './app/router';
import { useAuthStore } from './features/auth/auth.store';
import { startTheme } from './lib/theme';
import './index.css';

// The theme switch and the system's preference are followed from here on (theme-boot.js set the first paint's).
startTheme();

// Check the authentication state once, at start (docs/reference.md "Session states").
const authReady = useAuthStore.getState().checkStatus();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

/**
 * Runs `start` once the page's HTML has painted (its first screen, or 'Loading...'): right after the next frame, or
 * after a short while where frames are not drawn (a tab in the background). Started at once, the app kept the main
 * thread busy before the browser had painted anything, so on a slow phone the HTML that was there showed only once the
 * app's code had run.
 */
function afterFirstPaint(start: () => void) {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

afterFirstPaint(() => {
  // The router first (it matches the address and starts loading the page's code), the first render in a task of its
  // own: together with the app's code they were one long task on a phone.
  appRouter();
  // The first render as a transition: React renders it in slices of a few milliseconds, yielding to the browser in
  // between, where a blocking first render was one long task on a phone.
  setTimeout(() => {
    const root = createRoot(container);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App authReady={authReady} />
        </StrictMode>,
      ),
    );
  });
});
