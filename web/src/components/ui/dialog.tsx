import {
  useEffect,
  useLayoutEffect,
  useRef,
  type DialogHTMLAttributes,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

export interface DialogProps extends Omit<DialogHTMLAttributes<HTMLDialogElement>, 'open' | 'onClose' | 'onCancel'> {
  /** Escape, a click on the backdrop, or the owner's own buttons: the owner unmounts the dialog. */
  onClose: () => void;
  /** Focused on open; otherwise the browser focuses the first focusable control inside. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

/**
 * A modal `<dialog>` opened with showModal() while mounted: the page behind it is inert, Escape closes it (the
 * `cancel` event), and so does a click on the backdrop. Tab and Shift+Tab wrap around inside it (Chromium would
 * otherwise let focus leave to the browser's own controls after the last one). On unmount focus goes back to the
 * control that had it when the dialog opened, normally its opener.
 */
export function Dialog({ onClose, initialFocusRef, children, onKeyDown, ...props }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  const pressedOnBackdrop = useRef(false);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  // Opening is a layout effect so the dialog never paints closed; it reads the initial focus target once, on open.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocusRef?.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- open once per mount
  }, []);

  const wrapTab = (event: KeyboardEvent<HTMLDialogElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented || event.key !== 'Tab' || !dialogRef.current) return;
    const items = focusableIn(dialogRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialogRef.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialogRef.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  // A click whose press and release were both on the dialog box itself, outside its content, is on the backdrop.
  const onMouseDown = (event: MouseEvent<HTMLDialogElement>) => {
    pressedOnBackdrop.current = event.target === event.currentTarget;
  };
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (pressedOnBackdrop.current && event.target === event.currentTarget) onCloseRef.current();
    pressedOnBackdrop.current = false;
  };

  // Portalled to <body>: a dialog opened from inside a table cell must not inherit the cell's styles (white-space,
  // alignment). React events still bubble through the component tree, so an opener's stopPropagation still holds.
  return createPortal(
    <dialog
      ref={dialogRef}
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
      onKeyDown={wrapTab}
      onMouseDown={onMouseDown}
      onClick={onClick}
      {...props}
    >
      {children}
    </dialog>,
    document.body,
  );
}
