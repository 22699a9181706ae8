// The winners' list for the prize-giving ceremony (issue 37.2): an A4 PDF by tier, once the
// results are published. The same list as the public page (/danh-sach-doat-giai), with the same
// rule for the children's names.
import { useState } from 'react';
import { winnersMessages as m } from '../../../../shared/messages/winners';
import { Button } from '../../../components/ui/button';
import { Link } from '../../../lib/router';
import { downloadFile } from '../../../lib/download';

export function WinnersPdfCard() {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile('/admin/results/winners.pdf', 'danh-sach-doat-giai.pdf', m.pdfFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="admin-card">
      <h2>Danh sách đoạt giải để in</h2>
      <p className="muted">
        {m.pdfHint} Trang công khai: <Link href="~/danh-sach-doat-giai">{m.title.toLocaleLowerCase('vi')}</Link>.
      </p>
      <div className="admin-actions">
        <Button variant="outline" onClick={download} disabled={busy}>
          {busy ? 'Đang tải…' : m.pdfButton}
        </Button>
      </div>
    </div>
  );
}
