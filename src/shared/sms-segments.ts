// How many SMS segments a text takes: the rule the message form counts live and the server
// enforces (features/admin/messages). Text that only uses the GSM 03.38 alphabet travels as GSM-7
// (160 characters in one segment, 153 per part when concatenated); anything else, such as
// Vietnamese with diacritics, as UCS-2 (70 in one segment, 67 per part). The basic set's extension
// characters (^ { } \ [ ~ ] | €) count twice in GSM-7.
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENDED = '^{}\\[~]|€';

/** The family messages' limit: one segment, what the eSMS brand-name driver is asked to send. */
export const MAX_SMS_SEGMENTS = 1;

export interface SmsLength {
  encoding: 'gsm7' | 'ucs2';
  /** Characters as the encoding counts them (an extension character is 2 in GSM-7; UTF-16 units in UCS-2). */
  length: number;
  segments: number;
  /** Characters one segment holds for this text (one part alone, or each part of a long text). */
  perSegment: number;
}

export function smsLength(text: string): SmsLength {
  let gsm = 0;
  for (const char of text) {
    if (GSM7_BASIC.includes(char)) gsm += 1;
    else if (GSM7_EXTENDED.includes(char)) gsm += 2;
    else return ucs2(text);
  }
  const segments = gsm <= 160 ? 1 : Math.ceil(gsm / 153);
  return { encoding: 'gsm7', length: gsm, segments, perSegment: segments === 1 ? 160 : 153 };
}

function ucs2(text: string): SmsLength {
  const length = text.length;
  const segments = length <= 70 ? 1 : Math.ceil(length / 67);
  return { encoding: 'ucs2', length, segments, perSegment: segments === 1 ? 70 : 67 };
}

/** The text a family receives by SMS: the message and its opt-out link (counted in the segment). */
export const withOptOutLink = (body: string, link: string) => `${body} Tu choi: ${link}`;

/** The {placeholders} the server fills itself: the contest (unaccented), the site, the day the exam window closes, the days left. */
export const KNOWN_PLACEHOLDERS = ['cuoc_thi', 'trang_web', 'ngay_dong', 'so_ngay'] as const;
const PLACEHOLDER = /\{([a-z][a-z0-9_]{0,39})\}/g;
/** The {placeholders} of a text, once each, in order. */
export const placeholdersOf = (text: string) => [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
