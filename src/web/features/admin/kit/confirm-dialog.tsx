// "Xoá …?" and the like: a question that needs an answer, the action run on confirmation, a
// notice either way (the server's refusal, e.g. 409 in_use saying what uses it, as the error).
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { errorMessage } from '../../../lib/server-errors';

export function ConfirmDialog({
  title,
  children,
  onConfirm,
  onClose,
  confirmLabel = 'Xoá',
  confirmVariant = 'danger',
  cancelLabel = 'Huỷ',
  done = ['Đã xoá'],
  failed = 'Không xoá được',
}: {
  title: string;
  children: ReactNode;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  confirmLabel?: string;
  confirmVariant?: 'danger' | 'primary';
  cancelLabel?: string;
  /** The success notice: title and optional detail; null when `onConfirm` gives its own. */
  done?: [string, string?] | null;
  /** The error notice's title. */
  failed?: string;
}) {
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      if (done) notify('success', ...done);
      onClose();
    } catch (error) {
      notify('error', failed, errorMessage(error), 12_000);
      setBusy(false);
    }
  }
  return (
    <Modal
      title={title}
      onClose={onClose}
      role="alertdialog"
      describe
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            {cancelLabel}
          </Button>
          <Button variant={confirmVariant} disabled={busy} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
