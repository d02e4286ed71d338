const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex], [contenteditable="true"]';

/** The first control inside `root` a Tab would reach: shown, enabled, and not taken out of the Tab order. */
export function firstTabbable(root: HTMLElement): HTMLElement | null {
  for (const el of root.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (el.tabIndex >= 0 && el.getClientRects().length > 0) return el;
  }
  return null;
}

/**
 * Moves the focus into a dialog or panel that has just opened: to `target` when given, otherwise to its first
 * control, otherwise to the box itself (which is focusable, tabIndex -1).
 */
export function focusInitial(root: HTMLElement | null, target?: HTMLElement | null): void {
  if (!root) return;
  (target ?? firstTabbable(root) ?? root).focus();
}
