// Small building blocks of the catalogue's screens: the search box and the delete confirmation.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { errorMessage } from '../../../lib/server-errors';

/** A search field that applies on Enter or "Tìm". */
export function SearchBox({ label, onSearch }: { label: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="catalog-inline-form" role="search" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} type="search" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <Button type="submit" variant="outline">
        Tìm
      </Button>
    </form>
  );
}

/** "Xoá …?" with the server's refusal (409 in_use says what uses it) shown as an error notice. */
export function ConfirmDelete({ title, children, onDelete, onClose }: { title: string; children: ReactNode; onDelete: () => Promise<unknown>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onDelete();
      notify('success', 'Đã xoá');
      onClose();
    } catch (error) {
      notify('error', 'Không xoá được', errorMessage(error), 12_000);
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
            Huỷ
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => void confirm()}>
            Xoá
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

