/**
 * Shown while the app checks the authentication state at start (docs/reference.md "Routing rules": exactly
 * 'Loading...').
 */
export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-sm text-slate-500">
      Loading...
    </div>
  );
}
