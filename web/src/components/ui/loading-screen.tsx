/** Shown while the app checks the authentication state at start (SPEC.md §2: exactly 'Loading...'). */
export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-sm text-slate-500">
      Loading...
    </div>
  );
}
