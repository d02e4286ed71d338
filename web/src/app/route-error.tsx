import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { Button } from '../components/ui/button';
import { ErrorScreen } from '../components/ui/error-screen';
import { useFirstScreenGone } from '../lib/first-screen';

/** docs/reference.md "Routing rules": the router's error screen reads 'Unexpected Application Error!'. */
export const ROUTER_ERROR_TITLE = 'Unexpected Application Error!';

/** What went wrong, in the router's own words: '404 Not Found', or the error's message ('Loading chunk failed'). */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong';
}

function Actions() {
  return (
    <>
      <Link
        to="/dashboard"
        className="inline-flex items-center justify-center rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Go to dashboard
      </Link>
      <Button variant="secondary" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </>
  );
}

/**
 * The errorElement of the routes: a page that throws or whose code chunk fails to load (for instance after a new
 * release replaced the chunks) shows this instead of react-router's developer screen. Reload fetches the page anew.
 * `inFrame`: shown inside the signed-in frame, so the sidebar stays usable.
 */
export function RouteError({ inFrame = false }: { inFrame?: boolean }) {
  const error = useRouteError();
  useFirstScreenGone();
  const detail = describe(error);
  const chunk = detail === 'Loading chunk failed';
  return (
    <ErrorScreen
      fullScreen={!inFrame}
      title={ROUTER_ERROR_TITLE}
      detail={detail}
      description={
        chunk
          ? 'Part of the app could not be downloaded. Check your connection and reload the page.'
          : 'Something went wrong while showing this page. Reload it, or go back to the dashboard.'
      }
      actions={<Actions />}
    />
  );
}

/**
 * Any address no route matches. Shown in the router's own terms ('Unexpected Application Error!', '404 Not Found'),
 * on the same designed screen, with the way back.
 */
export function NotFound({ inFrame = false }: { inFrame?: boolean }) {
  return (
    <ErrorScreen
      fullScreen={!inFrame}
      title={ROUTER_ERROR_TITLE}
      detail="404 Not Found"
      description="There is no page at this address. It may have moved, or the link may be mistyped."
      actions={<Actions />}
    />
  );
}
