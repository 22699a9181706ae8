// The back office's and the education offices' files (exports, templates) need the session's token, so they are fetched and
// saved rather than linked; a refusal is a notice, never a broken download.
import { notify } from '../components/ui/notices';
import { saveBlob } from './certificate-files';
import { getSession } from './session';

export const EXPORT_FAILED = 'Xuất excel thất bại. Vui lòng thử lại.';

/** GET /api{path} with the session and saves the answer as `fileName`; `failed` is the notice otherwise. */
export async function downloadFile(path: string, fileName: string, failed = EXPORT_FAILED) {
  const response = await fetch(`/api${path}`, { headers: { authorization: `Bearer ${getSession()?.token ?? ''}` } });
  if (!response.ok) {
    notify('error', failed);
    return;
  }
  saveBlob(await response.blob(), fileName);
}
