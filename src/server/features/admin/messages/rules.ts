// The rules a family would expect, in Asia/Ho_Chi_Minh time (UTC+7 all year, no daylight saving):
// no message between 21:00 and 07:00 unless urgent, and the day a cap or a reminder counts in.
import { formatDate } from '../../../../shared/format';
import { familyMessageTexts } from '../../../../shared/messages/family-messages';
import { MAX_SMS_SEGMENTS, placeholdersOf, smsLength } from '../../../../shared/sms-segments';
import type { TemplateKind } from '../../../../shared/schemas/admin-messages';
import { appError } from '../../../lib/errors';

const VIETNAM_OFFSET_MS = 7 * 3_600_000;
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 7;

/** The Vietnamese calendar day of an instant, 'yyyy-mm-dd'. */
export function vietnamDay(at: Date): string {
  return new Date(at.getTime() + VIETNAM_OFFSET_MS).toISOString().slice(0, 10);
}

export function inQuietHours(at: Date): boolean {
  const hour = new Date(at.getTime() + VIETNAM_OFFSET_MS).getUTCHours();
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** `at` itself outside the quiet hours, else the 07:00 that ends them. */
export function nextSendingTime(at: Date): Date {
  if (!inQuietHours(at)) return at;
  const local = new Date(at.getTime() + VIETNAM_OFFSET_MS);
  const seven = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), QUIET_UNTIL_HOUR) - VIETNAM_OFFSET_MS;
  return new Date(local.getUTCHours() >= QUIET_FROM_HOUR ? seven + 86_400_000 : seven);
}

/** 07:00 of the next Vietnamese day: when a channel whose cap today's sends reached opens again. */
export function nextDayMorning(at: Date): Date {
  const local = new Date(at.getTime() + VIETNAM_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1, QUIET_UNTIL_HOUR) - VIETNAM_OFFSET_MS);
}

/**
 * The ready messages. SMS text without diacritics: brand-name SMS in Vietnam are registered and
 * sent unaccented, and an unaccented text holds 160 characters in one segment (70 with diacritics).
 * {placeholders} the server fills: cuoc_thi, trang_web, ngay_dong, so_ngay.
 */
export const readyMessages: Record<Exclude<TemplateKind, 'custom'>, string> = {
  results_published: '{cuoc_thi}: da cong bo ket qua. Xem tai {trang_web}',
  certificates_ready: '{cuoc_thi}: da co giay chung nhan cua con. Tai tai {trang_web}',
  reminder: '{cuoc_thi}: con van con luot thi, han chot {ngay_dong}. Vao thi: {trang_web}',
};

/** A text without Vietnamese marks, case kept ("Cuộc thi Đại sứ" -> "Cuoc thi Dai su"): what an unaccented SMS says. */
export const withoutMarks = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/g, 'd').replace(/Đ/g, 'D').normalize('NFC');

const PLACEHOLDER = /\{([a-z][a-z0-9_]{0,39})\}/g;

/** Fills a text's {placeholders} from `known` and `given`; refuses one left without a value. */
export function fillPlaceholders(text: string, known: Record<string, string>, given: Record<string, string>): string {
  const values = { ...known, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== '')) };
  const missing = placeholdersOf(text).filter((name) => !(name in values));
  if (missing.length) throw appError('template_params_missing', familyMessageTexts.missingParameters(missing), { body: familyMessageTexts.missingParameters(missing) });
  return text.replace(PLACEHOLDER, (_, name: string) => values[name]!);
}

/** The values the server knows for a contest: its name, the site, the day its exam window closes and the days left. */
export function knownPlaceholders(contest: { name: string; exam_ends_at: Date }, publicUrl: string, now: Date): Record<string, string> {
  const daysLeft = Math.max(0, Math.ceil((contest.exam_ends_at.getTime() - now.getTime()) / 86_400_000));
  return { cuoc_thi: withoutMarks(contest.name), trang_web: publicUrl.replace(/^https?:\/\//, ''), ngay_dong: formatDate(contest.exam_ends_at), so_ngay: String(daysLeft) };
}


/** Refuses a text past one segment, saying how many it takes. */
export function checkOneSegment(text: string) {
  const length = smsLength(text);
  if (length.segments > MAX_SMS_SEGMENTS) {
    const message = familyMessageTexts.tooLong(length.segments, length.length, length.perSegment, length.encoding);
    throw appError('message_too_long', message, { body: message });
  }
  return length;
}
