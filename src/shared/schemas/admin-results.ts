// The back office's results (/api/admin/results): the computation as a background task, the ties
// that cross a prize boundary and the organiser's decisions on them, the prize lists to review,
// publishing, and the exports.
import { z } from 'zod';
import { adminResultsMessages } from '../messages';
import { pageQuerySchema } from './admin';
import { idSchema, seasonParam } from './common';
import { prizeKinds } from './admin-contest';

export const tieScopes = ['individual', 'school_pupils', 'schools', 'classes'] as const;
export type TieScope = (typeof tieScopes)[number];

export const tieScopeLabels: Record<TieScope, string> = {
  individual: 'Giải cá nhân',
  school_pupils: 'Học sinh tiêu biểu của trường',
  schools: 'Giải tập thể trường',
  classes: 'Giải Giáo viên truyền lửa',
};

export const taskStages = ['starting', 'finalising', 'loading', 'ranking', 'storing', 'done'] as const;
export const taskStageLabels: Record<(typeof taskStages)[number], string> = {
  starting: 'Đang bắt đầu',
  finalising: 'Chấm các bài thi bỏ dở',
  loading: 'Đọc các bài thi đã nộp',
  ranking: 'Xếp hạng và trao giải',
  storing: 'Lưu kết quả',
  done: 'Xong',
};

/** POST /api/admin/results/compute: `force` computes a draft ("tính tạm") before the window closes. */
export const computeRequestSchema = z.object({ force: z.boolean().default(false) });

export const resultTaskSchema = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'done', 'failed']),
  forced: z.boolean(),
  stage: z.enum(taskStages),
  done: z.number().int(),
  total: z.number().int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** Why it failed; a task whose process stopped beating is answered as failed with this. */
  error: z.string().nullable(),
  summary: z
    .object({ participants: z.number().int(), exam_papers: z.number().int(), ties: z.number().int(), crossing_ties: z.number().int() })
    .nullable(),
});
export type ResultTaskView = z.infer<typeof resultTaskSchema>;

const memberId = z.union([z.number().int(), z.string().min(1).max(40)]);

export const tieMemberSchema = z.object({
  id: memberId,
  /** Pupil's name, school's name, or the class ("Lớp 3A1"). */
  name: z.string(),
  school: z.string().nullable(),
  class_name: z.string().nullable(),
  points: z.number().nullable(),
  duration_seconds: z.number().nullable(),
  submitted_at: z.string().nullable(),
  prediction: z.number().int().nullable(),
  /** What else decides the entry: participants and score for schools, participants for classes. */
  detail: z.string().nullable(),
});

export const tieViewSchema = z.object({
  key: z.string(),
  scope: z.enum(tieScopes),
  school_id: z.number().int().nullable(),
  school_name: z.string().nullable(),
  rank: z.number().int(),
  size: z.number().int(),
  crosses_prize: z.boolean(),
  /** The prize every member gets when they share it (the tier of the group's first place). */
  shared_prize: z.string().nullable(),
  /** Prize money sharing costs beyond giving the places one by one. */
  extra_amount: z.number().int(),
  /** applied: in the stored results; pending: decided after the computation (compute again). */
  decision: z.enum(['share', 'order']).nullable(),
  decision_state: z.enum(['applied', 'pending', 'none']),
  members: z.array(tieMemberSchema),
});
export type TieView = z.infer<typeof tieViewSchema>;

export const tieDecisionViewSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  scope: z.enum(tieScopes),
  decision: z.enum(['share', 'order']),
  ordered_ids: z.array(memberId).nullable(),
  member_ids: z.array(memberId),
  reason: z.string(),
  decided_at: z.string(),
  /** false when the last computation no longer finds exactly this group. */
  applicable: z.boolean(),
});

export const tieDecisionRequestSchema = z
  .object({
    scope: z.enum(tieScopes),
    school_id: idSchema().nullable().default(null),
    ids: z.array(memberId).min(2).max(1000),
    decision: z.enum(['share', 'order']),
    /** Every member once, first place first; required with 'order'. */
    order: z.array(memberId).max(1000).optional(),
    reason: z.string().trim().min(3, adminResultsMessages.reasonRequired).max(1000),
  })
  .refine((body) => body.decision !== 'order' || (body.order?.length ?? 0) > 0, { path: ['order'], message: 'Hãy sắp xếp thứ tự các thành viên.' });
export type TieDecisionRequest = z.infer<typeof tieDecisionRequestSchema>;

export const ceremonyTierSchema = z.object({
  kind: z.enum(prizeKinds),
  code: z.string(),
  name: z.string(),
  amount: z.number().int(),
  /** The settings' number of prizes ('school_pupils': per school × prized schools). */
  planned_winners: z.number().int(),
  planned_total: z.number().int(),
  /** Prizes the stored results give (ties that share a prize can make more). */
  winners: z.number().int(),
  total: z.number().int(),
});
export const ceremonySchema = z.object({
  tiers: z.array(ceremonyTierSchema),
  planned_total: z.number().int(),
  total: z.number().int(),
});
export type Ceremony = z.infer<typeof ceremonySchema>;

/** The prizes a pupil may have and the organiser may withdraw. */
export const withdrawablePrizeKinds = ['individual', 'school_pupils'] as const;

/** POST /api/admin/results/withdrawals: withdraw a pupil's prize, with the reason (audited). */
export const prizeWithdrawalRequestSchema = z.object({
  contestant_id: idSchema(),
  kind: z.enum(withdrawablePrizeKinds),
  reason: z.string().trim().min(3, adminResultsMessages.reasonRequired).max(1000),
});
export type PrizeWithdrawalRequest = z.infer<typeof prizeWithdrawalRequestSchema>;

export const prizeWithdrawalSchema = z.object({
  contestant_id: z.number().int(),
  fullname: z.string(),
  school: z.string(),
  kind: z.enum(withdrawablePrizeKinds),
  prize_name: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  withdrawn_at: z.string(),
  /** The organiser who withdrew it (name, else phone). */
  withdrawn_by: z.string(),
});
export type PrizeWithdrawal = z.infer<typeof prizeWithdrawalSchema>;
export const prizeWithdrawalResponseSchema = z.object({ success: z.literal(true), data: prizeWithdrawalSchema });

/** A back-office change made after the computation that can move a prize (its audit entry). */
export const resultChangeSchema = z.object({ at: z.string(), kind: z.string(), summary: z.string(), actor_phone: z.string() });
export type ResultChangeView = z.infer<typeof resultChangeSchema>;

/**
 * POST /api/admin/results/publish. Results out of date (changes made since their computation) are
 * published only when the organiser confirms it with a reason, for the changes they saw: `changes`
 * is the overview's out_of_date.through (a change made since is refused again).
 */
export const publishRequestSchema = z
  .object({
    out_of_date: z
      .object({
        changes: z.number().int().min(0),
        reason: z.string().trim().min(3, adminResultsMessages.reasonRequired).max(1000),
      })
      .strict()
      .optional(),
  })
  .strict();
export type PublishRequest = z.infer<typeof publishRequestSchema>;

export const resultsOverviewSchema = z.object({
  success: z.literal(true),
  data: z.object({
    contest: z.object({ id: z.number().int(), name: z.string(), exam_ends_at: z.string(), results_at: z.string(), window_closed: z.boolean() }),
    run: z
      .object({
        computed_at: z.string(),
        forced: z.boolean(),
        participants: z.number().int(),
        exam_papers: z.number().int(),
        published_at: z.string().nullable(),
        /**
         * Changes made since the computation that can move a prize, newest first (at most 20 listed
         * of `count`); `through` is the contest's count of such changes, which a publish confirms.
         */
        out_of_date: z.object({ count: z.number().int(), through: z.number().int(), changes: z.array(resultChangeSchema) }).nullable(),
      })
      .nullable(),
    task: resultTaskSchema.nullable(),
    /** Ties that cross a prize boundary (the organiser decides); the others are counted. */
    ties: z.array(tieViewSchema),
    other_ties: z.number().int(),
    decisions: z.array(tieDecisionViewSchema),
    /** Publishing is possible now, or the reasons it is not. */
    publish: z.object({ allowed: z.boolean(), reasons: z.array(z.string()) }),
    ceremony: ceremonySchema.nullable(),
    /** Prizes withdrawn by the organiser, newest first. */
    withdrawals: z.array(prizeWithdrawalSchema),
    /** Integrity flags not yet reviewed (Kiểm tra kết quả): the publish dialog says how many. */
    open_flags: z.number().int(),
  }),
});
export type ResultsOverview = z.infer<typeof resultsOverviewSchema>['data'];

export const taskResponseSchema = z.object({ success: z.literal(true), data: resultTaskSchema.nullable() });
export const decisionResponseSchema = z.object({ success: z.literal(true), data: tieDecisionViewSchema });
export const publishResponseSchema = z.object({ success: z.literal(true), data: z.object({ published_at: z.string() }) });

/** GET /api/admin/results/prizes: one tier kind's prize list, filtered by district or school. */

export const prizeListQuerySchema = pageQuerySchema.extend({
  season: seasonParam,
  kind: z.enum(prizeKinds).default('individual'),
  district_id: idSchema().optional(),
  school_id: idSchema().optional(),
});
export type PrizeListQuery = z.infer<typeof prizeListQuerySchema>;

export const prizeRowSchema = z.object({
  /** The pupil (individual and school_pupils prizes: a prize that can be withdrawn); null for a school or a class. */
  contestant_id: z.number().int().nullable(),
  rank: z.number().int().nullable(),
  tied: z.boolean(),
  /** Pupil, school, or class ("Lớp 3A1 — GV Nguyễn Thị Lan"). */
  name: z.string(),
  school: z.string().nullable(),
  district: z.string(),
  class_name: z.string().nullable(),
  points: z.number().nullable(),
  duration_seconds: z.number().nullable(),
  detail: z.string().nullable(),
  prediction: z.number().int().nullable(),
  prize: z.string(),
  amount: z.number().int(),
  /** Pupils: when the ranked exam was submitted, to the millisecond ("08:00:02,345 02/04/2026"). */
  submitted_at: z.string().nullable(),
  /** Pupils: what decided the place against the pupil above when score and time are equal. */
  decided_by: z.string().nullable(),
  /** Pupils: what the list must say of the holder (their personal data erased, the name a placeholder). */
  note: z.string().nullable(),
});
export type PrizeRow = z.infer<typeof prizeRowSchema>;

/** The exports (.xlsx), organiser only; each download is written to the audit log. */
export const resultExportKinds = ['winners', 'contestants', 'ceremony'] as const;
export type ResultExportKind = (typeof resultExportKinds)[number];
export const resultExportQuerySchema = z.object({
  season: seasonParam,
  /** The winners' export: only this tier ('Xuất danh sách này' on a tier's tab); every tier without it. */
  tier: z.enum(prizeKinds).optional(),
  district_id: idSchema().optional(),
  school_id: idSchema().optional(),
});
export const resultExportFileNames: Record<ResultExportKind, string> = {
  winners: 'danh_sach_doat_giai.xlsx',
  contestants: 'ket_qua_thi_sinh.xlsx',
  ceremony: 'kinh_phi_trao_giai.xlsx',
};
