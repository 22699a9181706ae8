// The back office's contest settings (GET/PUT /api/admin/contest): dates, exam limits, prize
// tiers and the class minimum. The body's types are checked by the schema (400); the rules on
// values and on how the dates fit together are `contestProblems`, used by the server (422
// invalid_settings, errors keyed by field) and by the form alike.
import { z } from 'zod';
import { intFields } from './common';
import { contestLimits, TIME_ZONE } from '../rules';
import { contestMessages } from '../messages/admin';
import { moneyInputSchema } from '../money';
import { contestDateFields } from './site';
import { unitLevels } from '../unit-level';

export { contestDateFields };
export type ContestDateField = (typeof contestDateFields)[number];

export const prizeKinds = ['individual', 'school', 'school_pupils', 'teacher'] as const;
export type PrizeKindName = (typeof prizeKinds)[number];

export const prizeKindLabels: Record<PrizeKindName, string> = {
  individual: 'Giải cá nhân',
  school: 'Giải tập thể trường',
  school_pupils: 'Quà cho học sinh tiêu biểu của trường đạt giải',
  teacher: 'Giải Giáo viên truyền lửa',
};


export const prizeTierSchema = z.object({
  kind: z.enum(prizeKinds),
  /** Kept for an existing tier (results name it); left out for a new one (the server makes one). */
  code: z.string().regex(/^[a-z0-9_]{1,40}$/).optional(),
  name: z.string().trim(),
  /** Number of prizes of the tier ('school_pupils': per prized school). */
  winners: z.number().int(),
  /** Đồng for one prize. */
  amount: z.number().int(),
});

/** A tier as sent: the amount may be typed text ("300.000", "1.000.000 đ"), read by parseMoney. */
const prizeTierInputSchema = prizeTierSchema.extend({ amount: moneyInputSchema });
export type PrizeTierInput = z.infer<typeof prizeTierInputSchema>;

/** A season's name and dates, as the settings and a new season (admin-seasons.ts) take them. */
export const seasonDatesShape = {
  name: z.string().trim(),
  /** ISO 8601 date-times (an offset or Z); shown in Asia/Ho_Chi_Minh. */
  reading_starts_at: z.string().trim(),
  reading_ends_at: z.string().trim(),
  exam_starts_at: z.string().trim(),
  exam_ends_at: z.string().trim(),
  results_at: z.string().trim(),
  ceremony_starts_at: z.string().trim(),
  ceremony_ends_at: z.string().trim(),
};

/**
 * When the result review shows the correct answers (issue 40): right after the submit (the
 * specification's) or once the season's exam window has closed, so that a sibling's or a
 * classmate's finished review is not the answer key while others still sit the exam.
 */
export const reviewCorrectAnswersOptions = ['after_submit', 'after_exam_window'] as const;
export type ReviewCorrectAnswers = (typeof reviewCorrectAnswersOptions)[number];
export const reviewCorrectAnswersLabels: Record<ReviewCorrectAnswers, { label: string; hint: string }> = {
  after_submit: {
    label: 'Ngay sau khi nộp bài',
    hint: 'Phụ huynh và thí sinh xem đáp án đúng của từng câu ngay khi nộp bài. Bài đã nộp của anh chị em hay bạn cùng lớp khi đó là đáp án cho người thi sau: việc chép sau khi người kia đã nộp bài gần như không phát hiện được.',
  },
  after_exam_window: {
    label: 'Sau khi đóng thi',
    hint: 'Sau khi nộp bài, gia đình thấy điểm, thời gian và câu đã chọn; đáp án đúng của từng câu chỉ hiện khi đã hết thời gian thi của mùa thi. Không ai lấy được đáp án từ bài đã nộp của người khác trong lúc còn người đang thi.',
  },
};

const settingsShape = {
  ...seasonDatesShape,
  ...intFields('exam_duration_seconds', 'questions_per_exam', 'attempts_per_contestant', 'class_min_participants'),
  /** Months after the results date before personal data is anonymised or deleted. */
  retention_months: z.number().int(),
  /** Every tier of every kind, in order within each kind (1st = the highest prize). */
  prize_tiers: z.array(prizeTierInputSchema).max(prizeKinds.length * contestLimits.tiersPerKind),
  review_correct_answers: z.enum(reviewCorrectAnswersOptions, { error: contestMessages.reviewOption }),
  /** The level under the province the season names (issue 36, shared/unit-level.ts). */
  unit_level: z.enum(unitLevels, { error: contestMessages.unitLevelOption }),
};

/**
 * PUT /api/admin/contest: any subset of the fields. What the GET answered is taken back as it is
 * (a script reads, changes one field and writes): its read-only `results_computed_at` is accepted
 * and dropped. Any other field not here is refused (400).
 */
export const contestUpdateSchema = z
  .object({ ...settingsShape, results_computed_at: z.string().nullable() })
  .partial()
  .strict()
  .transform(({ results_computed_at: _readOnly, ...update }) => update);
export type ContestUpdate = z.infer<typeof contestUpdateSchema>;

/** The settings as stored (GET, and the PUT's answer). */
export const contestSettingsSchema = z.object({
  ...settingsShape,
  prize_tiers: z.array(prizeTierSchema.extend({ code: z.string() })),
  /** When results were last computed (prize changes need a recomputation), or null. */
  results_computed_at: z.string().nullable(),
});
export type ContestSettings = z.infer<typeof contestSettingsSchema>;

export const contestResponseSchema = z.object({
  success: z.literal(true),
  data: contestSettingsSchema,
  /** Things the organiser should know (books with too few questions for an exam that opens later). */
  warnings: z.array(z.string()).optional(),
});

export const contestFieldLabels: Record<keyof typeof settingsShape, string> = {
  name: 'Tên cuộc thi',
  reading_starts_at: 'Bắt đầu đọc sách',
  reading_ends_at: 'Kết thúc đọc sách',
  exam_starts_at: 'Mở thi',
  exam_ends_at: 'Đóng thi',
  results_at: 'Công bố kết quả',
  ceremony_starts_at: 'Bắt đầu trao giải',
  ceremony_ends_at: 'Kết thúc trao giải',
  exam_duration_seconds: 'Thời gian làm bài',
  questions_per_exam: 'Số câu hỏi mỗi bài thi',
  attempts_per_contestant: 'Số lượt thi mỗi thí sinh',
  class_min_participants: 'Số thí sinh tối thiểu của lớp (giải giáo viên)',
  retention_months: 'Thời gian lưu dữ liệu cá nhân (tháng)',
  prize_tiers: 'Giải thưởng',
  review_correct_answers: 'Hiển thị đáp án đúng',
  unit_level: 'Cấp hành chính dưới tỉnh',
};


export type ContestProblems = Partial<Record<keyof typeof settingsShape, string>>;

const parseDate = (value: string): Date | undefined => {
  // ISO 8601 with a date and a time; Date alone would accept "2026" or "April 2".
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/**
 * Every broken rule of a complete set of settings, by field (empty when they are fine). A window
 * that has already ended is fine. Prize tiers: names, counts and amounts in range, at most one
 * 'school_pupils' tier (the ranking gives one), codes unique.
 */
export function contestProblems(
  settings: Omit<ContestSettings, 'results_computed_at' | 'prize_tiers' | 'review_correct_answers' | 'unit_level'> & { prize_tiers: PrizeTierInput[] },
): ContestProblems {
  const problems: ContestProblems = {};
  const name = settings.name.trim();
  if (!name) problems.name = contestMessages.nameRequired;
  else if (name.length > contestLimits.nameMax) problems.name = contestMessages.nameTooLong;

  const at = {} as Record<ContestDateField, Date | undefined>;
  for (const field of contestDateFields) {
    at[field] = parseDate(settings[field]);
    if (!at[field]) problems[field] = contestMessages.badDate;
  }
  const order = (later: ContestDateField, earlier: ContestDateField, message: string, strict: boolean) => {
    const a = at[later];
    const b = at[earlier];
    if (!a || !b || problems[later]) return;
    if (strict ? a <= b : a < b) problems[later] = message;
  };
  order('exam_ends_at', 'exam_starts_at', contestMessages.examEndsBeforeStart, true);
  order('results_at', 'exam_ends_at', contestMessages.resultsBeforeExamEnds, false);
  order('reading_ends_at', 'reading_starts_at', contestMessages.readingEndsBeforeStart, true);
  if (at.reading_starts_at && at.exam_starts_at && at.reading_starts_at > at.exam_starts_at && !problems.reading_starts_at) {
    problems.reading_starts_at = contestMessages.readingAfterExam;
  }
  order('ceremony_ends_at', 'ceremony_starts_at', contestMessages.ceremonyEndsBeforeStart, true);
  order('ceremony_starts_at', 'results_at', contestMessages.ceremonyBeforeResults, false);

  const range = (field: 'exam_duration_seconds' | 'questions_per_exam' | 'attempts_per_contestant' | 'class_min_participants' | 'retention_months', { min, max }: { min: number; max: number }) => {
    const value = settings[field];
    if (!Number.isInteger(value) || value < min || value > max) problems[field] = contestMessages.between(min, max);
  };
  range('exam_duration_seconds', contestLimits.durationSeconds);
  range('questions_per_exam', contestLimits.questionsPerExam);
  range('attempts_per_contestant', contestLimits.attempts);
  range('class_min_participants', contestLimits.classMin);
  range('retention_months', contestLimits.retentionMonths);

  const tierProblem = prizeTierProblem(settings.prize_tiers);
  if (tierProblem) problems.prize_tiers = tierProblem;
  return problems;
}

function prizeTierProblem(tiers: PrizeTierInput[]): string | undefined {
  const codes = new Set<string>();
  for (const kind of prizeKinds) {
    const count = tiers.filter((tier) => tier.kind === kind).length;
    if (count > contestLimits.tiersPerKind) return contestMessages.tooManyTiers(prizeKindLabels[kind]);
    if (kind === 'school_pupils' && count > 1) return contestMessages.onePupilsTier;
  }
  for (const [index, tier] of tiers.entries()) {
    const where = `${prizeKindLabels[tier.kind]}, hạng ${index + 1}`;
    if (!tier.name.trim() || tier.name.trim().length > contestLimits.tierNameMax) return `${where}: ${contestMessages.tierName}`;
    if (!Number.isInteger(tier.winners) || tier.winners < 0 || tier.winners > contestLimits.winnersMax) {
      return `${where}: số giải ${contestMessages.between(0, contestLimits.winnersMax).toLowerCase()}`;
    }
    if (!Number.isInteger(tier.amount) || tier.amount < 0 || tier.amount > contestLimits.amountMax) {
      return `${where}: tiền thưởng ${contestMessages.between(0, contestLimits.amountMax).toLowerCase()}`;
    }
    if (tier.code) {
      if (codes.has(tier.code)) return contestMessages.duplicateCode;
      codes.add(tier.code);
    }
  }
  return undefined;
}

// The form's date-time inputs (<input type="datetime-local">) in Vietnam's time (UTC+7 all year,
// no daylight saving), whatever the browser's own time zone is.
const VIETNAM_OFFSET_MS = 7 * 3600_000;
if (TIME_ZONE !== 'Asia/Ho_Chi_Minh') throw new Error('admin-contest: the local-time helpers assume UTC+7');

/** '2026-04-02T01:00:00.000Z' -> '2026-04-02T08:00' (Vietnam's wall clock). */
export function toVietnamLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() + VIETNAM_OFFSET_MS).toISOString().slice(0, 16);
}

/** '2026-04-02T08:00' (Vietnam's wall clock) -> '2026-04-02T08:00:00+07:00'; '' stays ''. */
export function fromVietnamLocalInput(local: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) ? `${local}:00+07:00` : local;
}

// The back-office forms: the same rules, with the dates as Vietnam's wall clock
// ('2026-04-02T08:00', what <input type="datetime-local"> holds).
const formNumber = z.number({ error: 'Hãy nhập một số.' });

export const contestFormSchema = z
  .object({
    name: z.string(),
    reading_starts_at: z.string(),
    reading_ends_at: z.string(),
    exam_starts_at: z.string(),
    exam_ends_at: z.string(),
    results_at: z.string(),
    ceremony_starts_at: z.string(),
    ceremony_ends_at: z.string(),
    exam_duration_seconds: formNumber,
    questions_per_exam: formNumber,
    attempts_per_contestant: formNumber,
    retention_months: formNumber,
    review_correct_answers: z.enum(reviewCorrectAnswersOptions, { error: contestMessages.reviewOption }),
    unit_level: z.enum(unitLevels, { error: contestMessages.unitLevelOption }),
  })
  .superRefine((values, ctx) => {
    const dates = Object.fromEntries(contestDateFields.map((field) => [field, fromVietnamLocalInput(values[field])]));
    const problems = contestProblems({ ...values, ...(dates as Record<ContestDateField, string>), class_min_participants: 1, prize_tiers: [] });
    for (const [field, message] of Object.entries(problems)) if (field in values) ctx.addIssue({ code: 'custom', path: [field], message });
  });
export type ContestFormValues = z.infer<typeof contestFormSchema>;

const between = (min: number, max: number) => formNumber.int(contestMessages.between(min, max)).min(min, contestMessages.between(min, max)).max(max, contestMessages.between(min, max));

export const prizeFormSchema = z
  .object({
    class_min_participants: between(contestLimits.classMin.min, contestLimits.classMin.max),
    prize_tiers: z.array(
      z.object({
        kind: z.enum(prizeKinds),
        code: z.string().optional(),
        name: z.string().trim().min(1, contestMessages.tierName).max(contestLimits.tierNameMax, contestMessages.tierName),
        winners: between(0, contestLimits.winnersMax),
        /** The text in the field ("300.000"); a number before it is first edited. */
        amount: moneyInputSchema.pipe(between(0, contestLimits.amountMax)),
      }),
    ),
  })
  .superRefine((values, ctx) => {
    const problem = prizeTierProblem(values.prize_tiers);
    if (problem) ctx.addIssue({ code: 'custom', path: ['prize_tiers'], message: problem });
  });
export type PrizeFormValues = z.infer<typeof prizeFormSchema>;
export type PrizeFormInput = z.input<typeof prizeFormSchema>;

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { contestMessages };
export { contestLimits };
