// "Tải Excel": one of the viewer's exports (.xlsx), fetched with the session and saved under the
// name the server gives it; disabled while it downloads, a notice if it fails.
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { downloadFrom } from '../../lib/download';

export function ExportButton({ path, query = '' }: { path: string; query?: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFrom(query ? `${path}?${query}` : path);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" onClick={() => void download()} disabled={busy}>
      Tải Excel
    </Button>
  );
}
