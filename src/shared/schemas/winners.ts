// The public winners' list (/danh-sach-doat-giai, issue 37.2): GET /api/winners. Small rows for a
// phone: what a visitor reads and nothing else (no id, no phone, no points, no certificate code).
import { z } from 'zod';
import { intFields } from './common';

/** Rows on one page of the public list. */
export const WINNERS_PER_PAGE = 20;
export const WINNERS_SEARCH_MAX_LENGTH = 100;

export const winnersQuerySchema = z.object({
  /** Part of the school's name, accents and case ignored. */
  school: z.string().trim().max(WINNERS_SEARCH_MAX_LENGTH).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** What a row names: a pupil (name or "Học sinh lớp …, Trường …"), a school, or a class's teacher. */
export const winnerKinds = ['pupil', 'school', 'teacher'] as const;

export const winnerRowSchema = z.object({
  /** The tier's heading ("Giải Nhất"): rows come tier by tier, in the tiers' order. */
  tier: z.string(),
  kind: z.enum(winnerKinds),
  /** The child's name only with the parent's consent, otherwise "Học sinh lớp 3A, Trường …". */
  name: z.string(),
  /** Null for a school's prize. */
  class_name: z.string().nullable(),
  school: z.string(),
  /** The school's unit (Quận/Huyện or Xã/Phường, as the season's setting says: unit_label). */
  unit: z.string(),
  prize: z.string(),
});

export const winnersDataSchema = z.discriminatedUnion('published', [
  z.object({ published: z.literal(false), message: z.string() }),
  z.object({
    published: z.literal(true),
    season: z.string(),
    /** dd/mm/yyyy, Vietnamese time. */
    published_on: z.string(),
    /** The unit column's heading: "Quận/Huyện" or "Xã/Phường". */
    unit_label: z.string(),
    items: z.array(winnerRowSchema),
    ...intFields('total', 'page', 'per_page'),
  }),
]);

export const winnersResponseSchema = z.object({ success: z.literal(true), data: winnersDataSchema });

export type WinnersQuery = z.infer<typeof winnersQuerySchema>;
export type WinnerRow = z.infer<typeof winnerRowSchema>;
export type WinnersData = z.infer<typeof winnersDataSchema>;
