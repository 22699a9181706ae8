// GET /api/site: the footer texts and the current contest's settings. Every date and year the
// site shows comes from `contest` (the contests row), never from a constant.
import { z } from 'zod';
import { yearOf } from '../format';

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
  exam_duration_seconds: z.number().int(),
});

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

export const siteResponseSchema = z.object({ success: z.literal(true), data: siteInfoSchema });

export type SiteContest = z.infer<typeof siteContestSchema>;
export type SiteInfo = z.infer<typeof siteInfoSchema>;

/** The dates of a contest, as stored (Date) or as sent (ISO string). */
export type ContestDates = Record<
  'reading_starts_at' | 'reading_ends_at' | 'exam_starts_at' | 'exam_ends_at' | 'results_at' | 'ceremony_starts_at' | 'ceremony_ends_at',
  Date | string
>;

/** The contest's year: the year its exam opens, in Vietnam. */
export function contestYear(contest: Pick<ContestDates, 'exam_starts_at'>): number {
  return yearOf(contest.exam_starts_at);
}

/** The contest's dates as ISO strings, for the API. */
export function contestDatesJson(contest: { [K in keyof ContestDates]: Date }): Record<keyof ContestDates, string> {
  const out = {} as Record<keyof ContestDates, string>;
  for (const key of Object.keys(contest) as (keyof ContestDates)[]) out[key] = contest[key].toISOString();
  return out;
}
