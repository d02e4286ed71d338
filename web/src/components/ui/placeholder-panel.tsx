/** Stands in for a page whose feature lands in a later release. */
export function PlaceholderPanel() {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center text-sm text-slate-600">
      This page is coming soon.
    </div>
  );
}
