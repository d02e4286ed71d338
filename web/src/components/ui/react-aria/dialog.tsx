import { useLayoutEffect, useRef, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { Dialog as AriaDialog, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import { cx } from '../cx';
import { EnGb } from './en-gb';
import { focusInitial } from '../focus';

export interface DialogProps {
  /** Escape, a click on the backdrop, or the owner's own buttons: the owner unmounts the dialog. */
  onClose: () => void;
  /** Focused on open; otherwise the first control a Tab would reach inside. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  children: ReactNode;
  /** The dialog's own box (the element with the dialog role). */
  className?: string;
  style?: CSSProperties;
  /** The layer behind it that dims the page; a click on it closes the dialog. */
  overlayClassName?: string;
  /** 'alertdialog' for a question that needs an answer (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  id?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  'data-testid'?: string;
}

/**
 * A modal dialog (React Aria's ModalOverlay, Modal and Dialog) while mounted: the page behind it is hidden from
 * assistive technology and out of the Tab order, focus stays inside (Tab and Shift+Tab wrap), Escape closes it and so
 * does a click on the backdrop. On unmount focus goes back to the control that had it when the dialog opened, normally
 * its opener. It is portalled to <body>, so a dialog opened from inside a table cell does not inherit the cell's
 * styles; React events still bubble through the component tree, so an opener's stopPropagation still holds.
 */
export function Dialog({
  onClose,
  initialFocusRef,
  children,
  className,
  style,
  overlayClassName,
  role = 'dialog',
  ...labels
}: DialogProps) {
  const dialogRef = useRef<HTMLElement>(null);

  // A layout effect of the parent runs after React Aria's own (its focus scope is in place) and before its dialog
  // focuses itself, which it leaves undone when the focus is already inside.
  useLayoutEffect(() => {
    focusInitial(dialogRef.current, initialFocusRef?.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount
  }, []);

  return (
    <EnGb>
      <ModalOverlay
        isOpen
        isDismissable
        onOpenChange={(open) => {
          if (!open) onClose();
        }}
        className={cx(
          'fixed inset-0 z-50 flex overflow-y-auto p-4',
          overlayClassName ?? 'bg-slate-900/50 motion-safe:animate-fade-in',
        )}
      >
        {/* The box is the dialog element itself; the modal wrapper only marks where "outside" begins. */}
        <AriaModal className="contents">
          <AriaDialog ref={dialogRef} role={role} className={cx('outline-none', className)} style={style} {...labels}>
            {children}
          </AriaDialog>
        </AriaModal>
      </ModalOverlay>
    </EnGb>
  );
}
