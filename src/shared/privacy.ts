// The privacy notice (/chinh-sach-bao-mat): its version and the masking of phone numbers in logs.
// A new version of the notice asks every parent for consent again at the next login.

/**
 * Version of the privacy notice: the date it was published (yyyy-mm-dd). 2026-12-04: the public
 * winners' list (class, school, unit and prize; the name only with its own consent, issue 37.2).
 */
export const PRIVACY_NOTICE_VERSION = '2026-12-04';

/**
 * The consents a parent gives, kept per account or per contestant with the notice's version and
 * time: the notice (users.privacy_*, required), the child's agreement (contestants.consent_*,
 * required at enrolment) and the publication of the child's name on the winners' list
 * (contestants.name_consent_*, 0049: optional, not given by default, changeable at any time).
 */
export const NAME_CONSENT_DEFAULT = false;

/** A parent who agreed to an older notice (or none) is asked again; other roles enrol no child. */
export const needsPrivacyConsent = (account: { role: string; privacy_version: string | null }) =>
  account.role === 'parent' && account.privacy_version !== PRIVACY_NOTICE_VERSION;

/** From this age the child's own agreement is needed too (Decree 13/2023, art. 20). */
export const CHILD_CONSENT_MIN_AGE = 7;

/** Default retention: months after the results date before personal data is anonymised. */
export const DEFAULT_RETENTION_MONTHS = 12;

/** '0981234321' -> '098****321': enough to tell two numbers apart in a log, not to call one. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 7) return '*'.repeat(digits.length);
  return `${digits.slice(0, 3)}${'*'.repeat(digits.length - 6)}${digits.slice(-3)}`;
}

/**
 * Every run of 9 to 12 digits (a phone number, with or without +84) standing on its own in a text, masked.
 * Digits glued to a Latin letter, a digit or a hyphen are part of something else (a request id such as
 * '…-3c4080123535b', a 13-digit timestamp) and stay, so ids in the log can still be searched for.
 */
export const maskPhonesIn = (text: string) =>
  text.replace(/(?<![A-Za-z0-9-])\+?\d{9,12}(?![A-Za-z0-9])/g, (match) => maskPhone(match));

/** The end of the retention period: `months` after the results date. */
export function retentionEndsAt(resultsAt: Date | string, months = DEFAULT_RETENTION_MONTHS): Date {
  const end = new Date(resultsAt);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}
