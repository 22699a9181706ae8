// File uploads to /api/admin with progress (fetch cannot report an upload's progress; XHR can).
// Answers and failures take the same shapes as the api client's (ApiRequestError, NetworkError).
import { ApiRequestError, NetworkError } from '../../../lib/api-client';
import { getSession, sessionEnded } from '../../../lib/session';

export interface UploadProgress {
  /** 0-1 while the file is sent; 1 while the server checks it. */
  sent: number;
  phase: 'sending' | 'checking';
}

export function uploadFile<T>(
  path: string,
  file: File,
  fields: Record<string, string> = {},
  onProgress?: (progress: UploadProgress) => void,
): Promise<T> {
  const form = new FormData();
  // Fields first: the server reads them before the file.
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', file, file.name);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    const session = getSession();
    if (session) xhr.setRequestHeader('authorization', `Bearer ${session.token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.timeout = 120_000;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ sent: event.loaded / event.total, phase: event.loaded < event.total ? 'sending' : 'checking' });
    };
    xhr.upload.onload = () => onProgress?.({ sent: 1, phase: 'checking' });
    xhr.onerror = () => reject(new NetworkError(new Error('upload failed')));
    xhr.ontimeout = () => reject(new NetworkError(new Error('upload timed out')));
    xhr.onload = () => {
      let body: any;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { success: false, code: 'server_error', message: `Lỗi máy chủ (${xhr.status}).` };
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.success !== false) resolve(body as T);
      else {
        if (xhr.status === 401 && session) sessionEnded();
        reject(new ApiRequestError(xhr.status, body));
      }
    };
    xhr.send(form);
  });
}
