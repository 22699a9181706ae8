// The organiser's signature and seal printed on every certificate (issue 37): a PNG with a
// transparent background each, uploaded to /api/admin/site/certificate-signature and -seal. The
// server checks the file (PNG by its bytes, 1 MB, 2000 × 2000 px, transparency) and redraws the
// certificates with it.
import { useState } from 'react';
import { certificateImageKinds, certificateImageLabels, type CertificateImageKind, type CertificateImagesResponse } from '../../../../shared/schemas/certificate-printing';
import { notify } from '../../../components/ui/notices';
import { errorMessage } from '../../../lib/server-errors';
import { uploadFile } from '../kit/upload';

type Images = CertificateImagesResponse['data'];

export function CertificateImagesForm({ images: initial }: { images: Images }) {
  const [images, setImages] = useState(initial);
  const [uploading, setUploading] = useState<CertificateImageKind | null>(null);
  const [errors, setErrors] = useState<Partial<Record<CertificateImageKind, string>>>({});

  const upload = async (kind: CertificateImageKind, input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setUploading(kind);
    setErrors((current) => ({ ...current, [kind]: undefined }));
    try {
      const answer = await uploadFile<CertificateImagesResponse>(`/admin/site/certificate-${kind}`, file);
      setImages(answer.data);
      notify('success', `Đã lưu ${certificateImageLabels[kind].toLowerCase()}. Các giấy chứng nhận sẽ được vẽ lại trong ít phút.`);
    } catch (error) {
      setErrors((current) => ({ ...current, [kind]: errorMessage(error) }));
    } finally {
      setUploading(null);
      input.value = '';
    }
  };

  return (
    <section className="admin-card" aria-labelledby="certificate-images-title">
      <h2 id="certificate-images-title">Chữ ký và con dấu trên giấy chứng nhận</h2>
      <p className="muted">Ảnh PNG có nền trong suốt, tối đa 1 MB và 2000 × 2000 điểm ảnh. Chữ ký in phía trên tên đơn vị tổ chức, con dấu in chồng lên phần bên trái chữ ký. Khi thay ảnh, mọi giấy chứng nhận được vẽ lại.</p>
      <div className="contest-certificate-images">
        {certificateImageKinds.map((kind) => {
          const image = images[kind];
          const error = errors[kind];
          return (
            <div key={kind} className="contest-certificate-image">
              <div className="contest-certificate-image-preview">
                {image ? <img src={image.url} alt={certificateImageLabels[kind]} width={image.width} height={image.height} /> : <span className="muted">Chưa có ảnh</span>}
              </div>
              {image && (
                <p className="muted">
                  {image.file_name} · {image.width} × {image.height} điểm ảnh · tải lên {image.uploaded}
                </p>
              )}
              <div className="field">
                <label htmlFor={`certificate-${kind}`}>{certificateImageLabels[kind]} (PNG nền trong suốt)</label>
                <input
                  id={`certificate-${kind}`}
                  type="file"
                  accept="image/png"
                  disabled={uploading !== null}
                  aria-describedby={error ? `certificate-${kind}-error` : undefined}
                  onChange={(event) => void upload(kind, event.currentTarget)}
                />
                {uploading === kind && <span role="status">Đang tải lên…</span>}
                {error && (
                  <span id={`certificate-${kind}-error`} className="field-error" role="alert">
                    {error}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}
