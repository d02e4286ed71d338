import { useRef, type ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export interface ConfirmDialogProps {
  title: string;
  /** What will happen, in a sentence or two. */
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Choices that go with the action (a select), between the message and the buttons. */
  children?: ReactNode;
}

/**
 * Asks before a destructive action (an alertdialog): Cancel has the focus, so Enter or Escape by reflex does no harm.
 */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onCancel, children }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={title}
      description={message}
      onClose={onCancel}
      initialFocusRef={cancelRef}
      role="alertdialog"
      size="sm"
      testId="confirm-dialog"
    >
      {children}
      <div className="mt-2 flex justify-end gap-2">
        <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
