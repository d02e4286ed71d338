import { createContext, useContext, useLayoutEffect } from 'react';

/**
 * The id of a page's first screen: the signed-in frame and the page's heading, written into the page's own file by
 * the build (app/first-screen.tsx) so a phone paints them with the HTML, before any script has run. It lies over the
 * app, inert, until the app shows the page itself.
 */
export const FIRST_SCREEN_ID = 'first-screen';

/**
 * Takes the first screen away once the app shows a page (in the commit that shows it, so the two never flash): the
 * router's root, which renders once the status check has settled and the page's code is in.
 */
export function useFirstScreenGone(): void {
  useLayoutEffect(() => {
    document.getElementById(FIRST_SCREEN_ID)?.remove();
  }, []);
}

/** True while the build draws a first screen (app/first-screen.tsx), where there is no browser to ask. */
export const DrawingFirstScreen = createContext(false);

/**
 * Whether this render is the build's first screen: what depends on the browser (whether it offers passkeys) is drawn
 * as most browsers then draw it, so nothing moves when the app takes its place.
 */
export function useDrawingFirstScreen(): boolean {
  return useContext(DrawingFirstScreen);
}
