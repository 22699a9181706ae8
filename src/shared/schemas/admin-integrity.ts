// The integrity screening (/api/admin/integrity, /quan-tri/kiem-tra-ket-qua; decision 027): the
// run at a family-wise rate the organiser sets, the flags with their evidence, and the decision
// on each (dismiss, or withhold the prize), always with a reason.
import { z } from 'zod';
import { reviewCorrectAnswersOptions } from './admin-contest';
import { idSchema, intFields } from './common';

export const integrityMessages = {
  rateRange: 'Tỉ lệ báo nhầm cho phép từ 0,1 % đến 10 %.',
  reasonRequired: 'Vui lòng nhập lý do (ít nhất 3 ký tự).',
  running: 'Đang có một lượt kiểm tra chạy. Vui lòng chờ lượt đó xong.',
  flagNotFound: 'Không tìm thấy cảnh báo này.',
  alreadyDecided: 'Cảnh báo này đã được xử lý.',
  notInFlag: 'Học sinh này không thuộc cảnh báo.',
  someDecided: (ids: string) => `Cảnh báo số ${ids} đã được xử lý. Hãy tải lại trang rồi chọn lại.`,
  /** The flags of one family (the children of one parent account, often on one login at once). */
  familyGroup: (phone: string, names: string) => `Cùng một gia đình (tài khoản ${phone}: ${names})`,
  /** What the family sees for a withheld prize: neutral, never the reason. */
  heldForFamily: (hotline: string) =>
    `Kết quả của em đang được Ban tổ chức xem xét thêm. Gia đình vui lòng liên hệ đường dây nóng ${hotline} để được hướng dẫn.`,
} as const;

export const integrityFlagKinds = ['similarity', 'speed', 'lockstep'] as const;
export type IntegrityFlagKind = (typeof integrityFlagKinds)[number];
export const integrityFlagLabels: Record<IntegrityFlagKind, string> = {
  similarity: 'Bài làm giống nhau bất thường',
  speed: 'Làm bài nhanh bất thường',
  lockstep: 'Hai bài làm xen kẽ trên một thiết bị',
};
export const integrityContactLabels: Record<string, string> = {
  class: 'cùng lớp',
  school: 'cùng trường',
  account: 'cùng tài khoản phụ huynh',
  device: 'cùng thiết bị',
};
export const integrityStatuses = ['open', 'dismissed', 'withheld'] as const;
export const integrityStatusLabels: Record<(typeof integrityStatuses)[number], string> = {
  open: 'Chưa xử lý',
  dismissed: 'Đã bỏ qua',
  withheld: 'Đã tạm giữ giải',
};

/** POST /api/admin/integrity/runs: the family-wise false-positive rate, in % (default 1). */
export const integrityRunRequestSchema = z.object({
  family_rate_percent: z.number({ error: integrityMessages.rateRange }).min(0.1, integrityMessages.rateRange).max(10, integrityMessages.rateRange).default(1),
});
export type IntegrityRunRequest = z.infer<typeof integrityRunRequestSchema>;

export const integrityRunSchema = z.object({
  family_rate_percent: z.number(),
  ...intFields('exams', 'pairs', 'tests'),
  threshold: z.number(),
  seconds: z.number(),
  ran_at: z.string(),
});

export const integrityStatusResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    running: z.boolean(),
    run: integrityRunSchema.nullable(),
    /** The season's setting (issue 40): what a pupil copying after a contact's submit can copy, and so what the screening can see. */
    review_correct_answers: z.enum(reviewCorrectAnswersOptions),
  }),
});

const sheetAnswerSchema = z.object({
  question_id: z.number().int(),
  question: z.string(),
  key: z.string().nullable(),
  /** Each exam's answer (null: blank or not drawn), whether it drew the question, when it first answered it and when the answer shown was saved. */
  answers: z.array(z.object({ drew: z.boolean(), answer: z.string().nullable(), right: z.boolean(), first_at: z.string().nullable(), answered_at: z.string().nullable() })),
  /** Both drew it and gave the same wrong answer (or both left it blank). */
  identical_wrong: z.boolean(),
  identical: z.boolean(),
  /** In step: the copier's (evidence.copier_exam_id) identical answer was saved this many seconds after the other's, within the in-step window; else null. */
  in_step_seconds: z.number().nullable(),
});

const flagExamSchema = z.object({
  exam_id: z.number().int(),
  contestant_id: z.number().int(),
  fullname: z.string(),
  school: z.string(),
  class_name: z.string(),
  attempt: z.number().int(),
  points: z.number().nullable(),
  start_time: z.string(),
  submitted_at: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  /** The login of the last save: its number, browser and address. */
  device: z.object({ session_id: z.number().int(), user_agent: z.string().nullable(), ip: z.string().nullable() }).nullable(),
  held: z.boolean(),
});

export const integrityFlagSchema = z.object({
  id: z.number().int(),
  kind: z.enum(integrityFlagKinds),
  strength: z.number(),
  status: z.enum(integrityStatuses),
  reason: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  contact: z.array(z.string()),
  /** A plain Vietnamese line of the evidence ("12 câu chung, 11 câu giống, 6 câu sai giống nhau; p = 3e-12"). */
  summary: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  exams: z.array(flagExamSchema),
  /**
   * The family the flag's exams belong to (one parent account: siblings, often on one login at
   * once, give a flag per pair): the review shows such flags together and dismisses them with one reason.
   */
  group: z.object({ key: z.string(), label: z.string() }).nullable(),
});
export type IntegrityFlag = z.infer<typeof integrityFlagSchema>;

export const integrityFlagsResponseSchema = z.object({ success: z.literal(true), data: z.array(integrityFlagSchema) });

export const integrityFlagDetailSchema = integrityFlagSchema.extend({
  sheet: z.array(sheetAnswerSchema),
  /** An in-step test pooled over several attempts: the other attempts' two exams and their sheets (the flag's contestants in its order). */
  more: z.array(z.object({ exams: z.array(flagExamSchema), sheet: z.array(sheetAnswerSchema) })),
});
export type IntegrityFlagDetail = z.infer<typeof integrityFlagDetailSchema>;
export const integrityFlagDetailResponseSchema = z.object({ success: z.literal(true), data: integrityFlagDetailSchema });

export const flagIdParamsSchema = z.object({ flagId: idSchema() });

/** POST /api/admin/integrity/flags/:flagId/dismiss */
export const dismissFlagRequestSchema = z.object({
  reason: z.string().trim().min(3, integrityMessages.reasonRequired).max(1000),
});
/** POST /api/admin/integrity/flags/dismiss: several open flags (a family's) with one reason. */
export const dismissFlagsRequestSchema = dismissFlagRequestSchema.extend({
  flag_ids: z
    .array(idSchema())
    .min(1)
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, 'Mỗi cảnh báo chỉ được chọn một lần.'),
});
export type DismissFlagsRequest = z.infer<typeof dismissFlagsRequestSchema>;
/** POST /api/admin/integrity/flags/:flagId/withhold: the contestant of the flag whose prize is withheld. */
export const withholdRequestSchema = z.object({
  contestant_id: idSchema(),
  reason: z.string().trim().min(3, integrityMessages.reasonRequired).max(1000),
});
export type WithholdRequest = z.infer<typeof withholdRequestSchema>;
