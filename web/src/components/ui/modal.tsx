import { useId, type ReactNode, type RefObject } from 'react';
import { cx } from './cx';
import { Dialog } from './dialog';

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  description?: ReactNode;
  /** Focused on open; otherwise the first focusable control inside. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** 'alertdialog' for a question that needs an answer (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
}

/**
 * A centred modal dialog with a title (see Dialog): focus stays inside, Escape and a click on the backdrop close it,
 * and focus returns to its opener. Taller than the screen, the page behind it scrolls it.
 */
export function Modal({
  title,
  description,
  onClose,
  children,
  initialFocusRef,
  role = 'dialog',
  size = 'md',
  testId,
}: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();

  return (
    <Dialog
      onClose={onClose}
      initialFocusRef={initialFocusRef}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      className={cx(
        'm-auto w-full rounded-2xl bg-white text-slate-900 shadow-xl motion-safe:animate-fade-in',
        size === 'sm' ? 'max-w-sm' : size === 'lg' ? 'max-w-2xl' : 'max-w-md',
      )}
    >
      <div className="p-6">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? (
          <div id={descriptionId} className="mt-1 text-sm text-slate-600">
            {description}
          </div>
        ) : null}
        <div className="mt-4">{children}</div>
      </div>
    </Dialog>
  );
}
