// GET /api/site: the footer texts and the current contest's settings. Every date and year the
// site shows comes from `contest` (the contests row), never from a constant.
import { z } from 'zod';
import { intFields } from './common';
import { yearOf } from '../format';
import { unitLevels } from '../unit-level';

const isoDateTime = z.string();

export const siteContestSchema = z.object({
  name: z.string(),
  /** ISO date-times (UTC); shown in Asia/Ho_Chi_Minh with src/shared/format.ts. */
  reading_starts_at: isoDateTime,
  reading_ends_at: isoDateTime,
  exam_starts_at: isoDateTime,
  exam_ends_at: isoDateTime,
  results_at: isoDateTime,
  ceremony_starts_at: isoDateTime,
  ceremony_ends_at: isoDateTime,
  ...intFields('exam_duration_seconds', 'questions_per_exam', 'attempts_per_contestant'),
  /** Months after results_at that personal data is kept (the privacy notice says so). */
  retention_months: z.number().int(),
  /** The level under the province this season names (issue 36): a client labels district_id with it. */
  unit_level: z.enum(unitLevels),
  /** Its name, as the site's forms and reports say it: "Quận/Huyện" or "Xã/Phường". */
  unit_label: z.string(),
});

// The footer's texts: the organiser edits them in the back office (PUT /api/admin/site, stored
// in site_settings); config.site gives them while nothing is stored. Links are http(s) only: a
// `javascript:` address is a valid URL but never a link we print.
const webAddress = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s/]+[^\s]*$/i, 'Địa chỉ phải bắt đầu bằng http:// hoặc https://');
/** A sponsor's logo: an uploaded image (/api/media/...), a file of the site (/images/...) or an https address. */
const logoAddress = z
  .string()
  .trim()
  .max(500)
  .regex(/^(\/(?!\/)[^\s]*|https:\/\/[^\s/]+[^\s]*)$/i, 'Hãy tải ảnh logo lên');
const text = (label: string, max: number) =>
  z.string().trim().min(1, `${label} là bắt buộc.`).max(max, `${label} tối đa ${max} ký tự.`);

export const sponsorSchema = z.object({
  name: text('Tên đơn vị', 200),
  logo: logoAddress,
  url: webAddress,
});
export type Sponsor = z.infer<typeof sponsorSchema>;

export const MAX_SPONSORS = 20;

export const siteFooterSchema = z.object({
  siteName: text('Tên trang', 200),
  organiserName: text('Tên đơn vị tổ chức', 300),
  organiserAddress: text('Địa chỉ', 500),
  hotline: z
    .string()
    .trim()
    .regex(/^\+?[0-9 .()-]{6,20}$/, 'Hotline chỉ gồm chữ số, khoảng trắng và các dấu . - ( ) +'),
  contactEmail: z.string().trim().max(200).pipe(z.email('E-mail không hợp lệ.')),
  social: z.object({ facebook: webAddress, youtube: webAddress, zalo: webAddress }),
  sponsors: z.array(sponsorSchema).max(MAX_SPONSORS, `Tối đa ${MAX_SPONSORS} đơn vị đồng hành.`),
  businessLicence: text('Dòng giấy phép', 500),
});
export type SiteFooter = z.infer<typeof siteFooterSchema>;

/**
 * PUT /api/admin/site: the footer, or what GET /api/admin/site answered as it is ({footer,
 * from_config}: the read-only from_config ignored), so that a script can read, change and write.
 */
export const siteFooterUpdateSchema = z.preprocess(
  (body) => (typeof body === 'object' && body !== null && 'footer' in body && typeof body.footer === 'object' ? body.footer : body),
  siteFooterSchema,
);

export const siteInfoSchema = z.object({
  siteName: z.string(),
  organiserName: z.string(),
  organiserAddress: z.string(),
  hotline: z.string(),
  contactEmail: z.string(),
  social: z.object({ facebook: z.string(), youtube: z.string(), zalo: z.string() }),
  sponsors: z.array(z.object({ name: z.string(), logo: z.string(), url: z.string() })),
  businessLicence: z.string(),
  contest: siteContestSchema.nullable().optional(),
});

/** GET/PUT /api/admin/site: the footer as the site shows it, and whether it is still the configuration's. */
export const adminSiteResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ footer: siteFooterSchema, from_config: z.boolean() }),
});

export const siteResponseSchema = z.object({ success: z.literal(true), data: siteInfoSchema });

export type SiteContest = z.infer<typeof siteContestSchema>;
export type SiteInfo = z.infer<typeof siteInfoSchema>;

/** The dates of a contest, in the order of the season. */
export const contestDateFields = [
  'reading_starts_at',
  'reading_ends_at',
  'exam_starts_at',
  'exam_ends_at',
  'results_at',
  'ceremony_starts_at',
  'ceremony_ends_at',
] as const;

/** The dates of a contest, as stored (Date) or as sent (ISO string). */
export type ContestDates = Record<(typeof contestDateFields)[number], Date | string>;

/** The contest's year: the year its exam opens, in Vietnam. */
export function contestYear(contest: Pick<ContestDates, 'exam_starts_at'>): number {
  return yearOf(contest.exam_starts_at);
}

/** The contest's dates as ISO strings, for the API. */
export function contestDatesJson(contest: { [K in keyof ContestDates]: Date }): Record<keyof ContestDates, string> {
  const out = {} as Record<keyof ContestDates, string>;
  for (const key of contestDateFields) out[key] = contest[key].toISOString();
  return out;
}
