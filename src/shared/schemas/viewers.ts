// The education offices' read-only area (issue 41): province viewers (the Department of Education,
// the whole province) and unit viewers (one or more units under the province: Xã/Phường or
// Quận/Huyện as the season's level says). Created by the organiser (POST /api/admin/viewers, one by
// one or by import); they read /api/viewer/* of their scope only, and nothing they read carries a
// parent's phone, a contestant id or a withheld prize. The routes and the web screens share these
// schemas: they are the contract between the two.
import { z } from 'zod';
import { idSchema, intFields } from './common';
import { examDayCountsSchema, examWindowSchema } from './admin-exam-days';
import { importResponseSchema, pageOfSchema } from './admin';
import { mobilePhoneSchema } from './auth';
import { personNameSchema, passwordLinkSchema } from './admin-accounts';
import { viewerMessages } from '../messages/admin';

/** The two viewer roles (users.role). */
export const viewerRoles = ['province_viewer', 'unit_viewer'] as const;
export type ViewerRole = (typeof viewerRoles)[number];
export const viewerKinds = ['province', 'unit'] as const;
export type ViewerKind = (typeof viewerKinds)[number];
export const viewerRoleOfKind: Record<ViewerKind, ViewerRole> = { province: 'province_viewer', unit: 'unit_viewer' };

/** A unit viewer sees at most this many units. */
export const VIEWER_UNITS_MAX = 50;

// Creating viewers (/api/admin/viewers) ------------------------------------------------------

/** POST /api/admin/viewers: a province viewer has no units; a unit viewer one or more (district ids). */
export const createViewerSchema = z
  .object({
    phone: mobilePhoneSchema,
    name: personNameSchema,
    kind: z.enum(viewerKinds, { error: viewerMessages.kindRequired }),
    district_ids: z.array(idSchema()).max(VIEWER_UNITS_MAX, { error: viewerMessages.unitsTooMany(VIEWER_UNITS_MAX) }).default([]),
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'unit' && body.district_ids.length === 0)
      ctx.addIssue({ code: 'custom', path: ['district_ids'], message: viewerMessages.unitsRequired });
    if (body.kind === 'province' && body.district_ids.length > 0)
      ctx.addIssue({ code: 'custom', path: ['district_ids'], message: viewerMessages.provinceHasNoUnits });
  });
export type CreateViewerInput = z.input<typeof createViewerSchema>;

/**
 * POST /api/admin/viewers/import (multipart `file`, `dry_run`): .xlsx or .csv with the columns
 * "Số điện thoại", "Họ tên", "Đơn vị" (unit names separated by ";", accents and case ignored;
 * empty: a province viewer). Answered like the school administrators' import.
 */
export const viewerImportResponseSchema = importResponseSchema({
  links: z.array(passwordLinkSchema),
  sms_failed: z.array(z.string()),
  message: z.string().optional(),
});

// What a viewer sees (/api/viewer/*) ---------------------------------------------------------

/** GET /api/viewer/scope: who is looking and at what. */
export const viewerScopeSchema = z.object({
  kind: z.enum(viewerKinds),
  /** "Toàn tỉnh" or the units' names joined by ", ". */
  label: z.string(),
  /** The season's unit heading: "Quận/Huyện" or "Xã/Phường". */
  unit_label: z.string(),
  /** The units seen (every unit of the province for a province viewer). */
  units: z.array(z.object({ id: z.number().int(), name: z.string() })),
  season: z.string(),
  /** Whether the season's results are published (the results page has content). */
  results_published: z.boolean(),
});
export type ViewerScope = z.infer<typeof viewerScopeSchema>;
export const viewerScopeResponseSchema = z.object({ success: z.literal(true), data: viewerScopeSchema });

/** ?district_id= narrows to one unit of the scope (another answers 403); ?school_q= filters schools by name; ?page= */
export const viewerParticipationQuerySchema = z.object({
  district_id: idSchema().optional(),
  school_q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type ViewerParticipationQuery = z.infer<typeof viewerParticipationQuerySchema>;

const pupilsAndShare = {
  /** Pupils of the school (the schools' sum for a unit or the scope); 0 when the catalogue has none. */
  pupils: z.number().int(),
  /** contestants / pupils (0..1, may pass 1 when the catalogue's count is old); null without pupils. */
  participation: z.number().nullable(),
};

/** The exam days' counts (children enrolled, in progress, started and finished today) and since the window opened. */
export const participationCountsSchema = examDayCountsSchema.extend(intFields('started_total', 'finished_total'));

/** A unit's or a school's line: its counts against its pupils (the catalogue's "Số học sinh"). */
export const participationRowSchema = participationCountsSchema.extend({
  ...intFields('id'),
  name: z.string(),
  /** A school's unit; empty on a unit's line. */
  unit: z.string(),
  ...pupilsAndShare,
});
export type ParticipationRow = z.infer<typeof participationRowSchema>;

/** PER_PAGE schools on a page, the lagging first (lowest participation, no pupils count last). */
export const VIEWER_SCHOOLS_PER_PAGE = 50;

export const viewerParticipationSchema = z.object({
  computed_at: z.string(),
  /** dd/mm/yyyy, Asia/Ho_Chi_Minh. */
  today: z.string(),
  window: examWindowSchema.nullable(),
  totals: participationCountsSchema.extend(pupilsAndShare),
  /** Exams started in each hour of today (index 0 = 00:00-00:59, Vietnamese time), in scope. */
  started_per_hour: z.array(z.number().int()).length(24),
  units: z.array(participationRowSchema),
  schools: pageOfSchema(participationRowSchema),
});
export type ViewerParticipation = z.infer<typeof viewerParticipationSchema>;
export const viewerParticipationResponseSchema = z.object({ success: z.literal(true), data: viewerParticipationSchema });

/** A prize of the scope: only prizes the organiser published (no withheld one), no id, no phone. */
export const viewerPrizeRowSchema = z.object({
  tier: z.string(),
  /** The pupil's name (school reports show it), a school's name for a school prize, or the class teacher's. */
  name: z.string(),
  class_name: z.string().nullable(),
  school: z.string(),
  unit: z.string(),
  /** Null for a school's prize. */
  points: z.number().nullable(),
  /** Time taken in seconds; null for a school's prize. */
  duration_seconds: z.number().int().nullable(),
  prize: z.string(),
});
export type ViewerPrizeRow = z.infer<typeof viewerPrizeRowSchema>;

/** A school's or a unit's results: who took part, who finished, the mean of the best scores, prizes. */
export const resultSummaryRowSchema = z.object({
  name: z.string(),
  unit: z.string(),
  ...intFields('pupils', 'contestants', 'finished', 'prizes'),
  /** Mean of each finished contestant's best points (1 decimal); null when none finished. */
  mean_points: z.number().nullable(),
});
export type ResultSummaryRow = z.infer<typeof resultSummaryRowSchema>;

export const viewerResultsSchema = z.discriminatedUnion('published', [
  z.object({ published: z.literal(false), message: z.string() }),
  z.object({
    published: z.literal(true),
    /** dd/mm/yyyy. */
    published_on: z.string(),
    prizes: z.array(viewerPrizeRowSchema),
    schools: z.array(resultSummaryRowSchema),
    units: z.array(resultSummaryRowSchema),
  }),
]);
export type ViewerResults = z.infer<typeof viewerResultsSchema>;
export const viewerResultsResponseSchema = z.object({ success: z.literal(true), data: viewerResultsSchema });

/**
 * The exports (.xlsx, Content-Disposition attachment): GET /api/viewer/participation.xlsx
 * (?district_id= as above; sheets "Đơn vị" and "Trường") and GET /api/viewer/results.xlsx (sheets
 * "Giải thưởng", "Trường", "Đơn vị"; 409 before the results are published).
 */
export const viewerExportPaths = { participation: '/api/viewer/participation.xlsx', results: '/api/viewer/results.xlsx' } as const;

export { viewerMessages };
