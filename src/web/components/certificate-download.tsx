// The PDF download of a certificate (its owner's, with the bearer token): the certificate page's
// cards and the parent's report of an earlier season.
import { useState, type ComponentProps } from 'react';
import { messages, resultMessages } from '../../shared/messages';
import type { CertificateView } from '../../shared/schemas/certificates';
import { Button } from './ui/button';
import { notify } from './ui/notices';
import { fetchCertificateBlob, saveBlob } from '../lib/certificate-files';

export function CertificateDownload({
  certificate,
  label = 'Tải giấy chứng nhận (PDF)',
  name,
  variant,
}: {
  certificate: CertificateView;
  label?: string;
  /** The accessible name when several certificates sit side by side (it begins with the label). */
  name?: string;
  variant?: ComponentProps<typeof Button>['variant'];
}) {
  const [downloading, setDownloading] = useState(false);
  const onDownload = async () => {
    setDownloading(true);
    try {
      saveBlob(await fetchCertificateBlob(certificate.pdf_url), `giay-chung-nhan-${certificate.code}.pdf`);
    } catch (error) {
      console.warn('Không tải được giấy chứng nhận', error);
      notify('error', messages.failedTitle, resultMessages.downloadFailed);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Button variant={variant} onClick={onDownload} disabled={downloading} aria-busy={downloading || undefined} aria-label={name}>
      {label}
    </Button>
  );
}
