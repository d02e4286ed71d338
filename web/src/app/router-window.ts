/**
 * Session storage as the router sees it: nothing kept. React Router reads the view transitions it saved there as it
 * is made (and saves them when the page is hidden, if there are any); the app has no view transitions, so there is
 * never anything to read. The read was not free: a tab's first use of session storage waits, on the main thread,
 * for the browser to open it (a trace of a cold load of /dashboard: 16–24 ms of the router's 30–45 ms task on a
 * desktop CPU, four times that on a phone).
 */
const NO_SESSION_STORAGE: Pick<Storage, 'getItem' | 'setItem'> = {
  getItem: () => null,
  setItem: () => undefined,
};

/**
 * `target` as the router reads it: its own location, history and events (its methods called on it, as the browser
 * requires), but {@link NO_SESSION_STORAGE} for its session storage.
 */
export function windowWithoutSessionStorage(target: Window): Window {
  return new Proxy(target, {
    get(win, key) {
      if (key === 'sessionStorage') return NO_SESSION_STORAGE;
      const value: unknown = Reflect.get(win, key, win);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(win) : value;
    },
  });
}
