import { useEffect, useId, useRef, type HTMLAttributes, type ReactNode } from 'react';
import { keepTabInside } from '../../lib/focus';

/**
 * An accessible dialog: labelled by its title (and described by its body when `describe` is set),
 * focus moves in on open and back on close, Tab stays inside, Escape and the backdrop close it.
 */
export function Modal({
  title,
  onClose,
  children,
  actions,
  role = 'dialog',
  describe = false,
  className,
  dialogProps,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  /** 'alertdialog' for a message or a question that needs an answer. */
  role?: 'dialog' | 'alertdialog';
  /** Ties the body to the dialog (aria-describedby): for short messages read out on open. */
  describe?: boolean;
  className?: string;
  /** Extra attributes and handlers of the dialog box. */
  dialogProps?: HTMLAttributes<HTMLDivElement>;
}) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  // The latest onClose without re-running the effect (which would move the focus again).
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const dialog = dialogRef.current;
    dialog?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close.current();
      } else if (dialog) {
        keepTabInside(event, dialog);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  return (
    <div className="modal-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div
        className={['modal', className].filter(Boolean).join(' ')}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describe ? bodyId : undefined}
        tabIndex={-1}
        ref={dialogRef}
        {...dialogProps}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId}>{children}</div>
        {actions && <div className="modal-actions">{actions}</div>}
      </div>
    </div>
  );
}
