// The back office's and the education offices' files (exports, templates) need the session's
// token, so they are fetched and saved rather than linked; a refusal is a notice, never a broken download.
import { notify } from '../components/ui/notices';
import { saveBlob } from './certificate-files';
import { getSession } from './session';

export const EXPORT_FAILED = 'Xuất excel thất bại. Vui lòng thử lại.';

/** GET /api{path} with the session and saves the answer as `fileName`; `failed` is the notice otherwise. */
export async function downloadFile(path: string, fileName: string, failed = EXPORT_FAILED) {
  await downloadFrom(`/api${path}`, fileName, failed);
}

/**
 * GET `url` (a path of the site, /api/... included) with the session and saves the answer as
 * `fileName`, or under the name the server gives (Content-Disposition) when none is given; resolves
 * whether it was saved.
 */
export async function downloadFrom(url: string, fileName?: string, failed = EXPORT_FAILED): Promise<boolean> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${getSession()?.token ?? ''}` } }).catch(() => null);
  if (!response?.ok) {
    notify('error', failed);
    return false;
  }
  saveBlob(await response.blob(), fileName ?? fileNameOf(response.headers.get('content-disposition')) ?? 'tai-xuong.xlsx');
  return true;
}

/** The file name of a Content-Disposition header: filename*=UTF-8''… (RFC 6266) before filename="…". */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // a malformed name: the plain one, if any
    }
  }
  return /filename\s*=\s*"([^"]+)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}
