// The name of an uploaded file is the sender's text: it goes into the audit log, the server log
// and answers, so it is cleaned once, where a multipart upload is read (features/admin/kit/uploads.ts).
// Control characters (C0, DEL, C1: NUL is refused by PostgreSQL, escapes rewrite a terminal) and
// the bidirectional overrides and isolates (which make "gpj.exe" read as "exe.jpg") are dropped;
// a path is reduced to its last part; the length is capped.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNWANTED = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const MAX_LENGTH = 200;

/** The file name safe to store and show: no control or bidi characters, no folders, trimmed, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  const withoutControls = (name ?? '').replace(UNWANTED, '');
  // Old browsers send "C:\\fakepath\\x.xlsx"; nothing is ever stored under the name itself.
  const base = withoutControls.split(/[\\/]/).pop() ?? '';
  return Array.from(base.normalize('NFC').trim()).slice(0, MAX_LENGTH).join('');
}
