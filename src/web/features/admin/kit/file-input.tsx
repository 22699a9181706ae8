// A file input that sends the file it is given at once (a book's cover, a question's clip): busy
// while it runs, the input emptied so that the same file can be chosen again, and the server's
// refusal as an error notice.
import { useId, useState } from 'react';
import { notify } from '../../../components/ui/notices';
import { errorMessage } from '../../../lib/server-errors';

export function FileInput({ label, accept, failed, send }: { label: string; accept: string; failed: string; send: (file: File) => Promise<void> }) {
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  return (
    <>
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        type="file"
        accept={accept}
        disabled={busy}
        onChange={async (event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setBusy(true);
          try {
            await send(file);
          } catch (error) {
            notify('error', failed, errorMessage(error));
          } finally {
            setBusy(false);
          }
        }}
      />
    </>
  );
}
