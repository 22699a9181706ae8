// Certificate files are served to their owner only, with the bearer token: the browser fetches
// them as blobs (an <img> or a plain link cannot send the header) and shows or saves those.
import { useEffect, useState } from 'react';
import { getSession } from './session';

export async function fetchCertificateBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const session = getSession();
  const response = await fetch(path, { headers: session ? { authorization: `Bearer ${session.token}` } : {}, signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.blob();
}

/** Starts the download of a blob under `fileName`. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** An object URL of an authenticated image, released when the component goes away. */
export function useCertificateImage(path: string | null | undefined): { url?: string; failed: boolean } {
  const [state, setState] = useState<{ url?: string; failed: boolean }>({ failed: false });
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    let url: string | undefined;
    fetchCertificateBlob(path, controller.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setState({ url, failed: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Không tải được ảnh giấy chứng nhận', error);
        setState({ failed: true });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return path ? state : { failed: false };
}
