// A certificate code as people type it back: "abcd efgh jklm", " ABCD-EFGH-JKLM ", "abcdefghjklm"
// are the printed ABCD-EFGH-JKLM. One rule for the public /xac-minh page, its API and the
// organisers' search.

/** The printed code: 12 letters and digits in groups of 4 joined by '-'. */
export const CERTIFICATE_CODE = /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/;

/**
 * Upper case, spaces and dashes (any kind) dropped, then regrouped 4-4-4 when 12 letters and
 * digits remain; anything else comes back upper case without spaces, for the caller to refuse.
 */
export function normaliseCertificateCode(typed: string): string {
  const compact = typed.normalize('NFC').toUpperCase().replace(/[\s\u2010-\u2015-]+/gu, '');
  return /^[A-Z0-9]{12}$/.test(compact) ? compact.replace(/^(.{4})(.{4})(.{4})$/, '$1-$2-$3') : compact;
}
