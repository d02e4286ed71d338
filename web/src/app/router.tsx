import { createBrowserRouter } from 'react-router-dom';
import { routes } from './routes';
import { windowWithoutSessionStorage } from './router-window';

let router: ReturnType<typeof createBrowserRouter> | undefined;

/**
 * The app's one router, made on first use: main.tsx makes it right after the first paint, in a task of its own (made
 * while the app's code loaded, it was the biggest part of one long task on a phone). Making it matches the address and
 * starts loading the page's code.
 */
export function appRouter() {
  router ??= createBrowserRouter(routes, { window: windowWithoutSessionStorage(window) });
  return router;
}
