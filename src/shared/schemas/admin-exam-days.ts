// The back office's exam days (issue 13): the live dashboard (GET /api/admin/exam-days/dashboard)
// and incidents (find a contestant, give one extra attempt, extend an attempt in progress). The
// bodies' types are checked by the schemas (400); the rules on values are `extraAttemptProblems`
// and `extensionProblems`, used by the server (422 invalid_input, errors keyed by field) and by
// the forms alike.
import { z } from 'zod';
import { idSchema, intFields } from './common';
import { pageOfSchema } from './admin';
import { examDaysMessages } from '../messages';

/** Limits of the incident actions; the database's CHECKs hold the same (0013_exam_days.sql). */
export const incidentLimits = {
  extraAttemptsPerContestant: 1,
  /** Minutes added to one attempt's deadline, in total. */
  extensionMinutesMax: 20,
  reasonMin: 3,
  reasonMax: 500,
} as const;

// Dashboard ------------------------------------------------------------------------------------

export const dashboardQuerySchema = z.object({
  /** Filters the schools by name (accents ignored). */
  school_q: z.string().trim().max(200).optional(),
  school_page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** What the exam days count, for a line or for all: children enrolled, exams in progress, started and finished today. */
export const examDayCountsSchema = z.object(intFields('contestants', 'in_progress', 'started_today', 'finished_today'));

/** The season's exam window, and whether it is open now. */
export const examWindowSchema = z.object({ starts_at: z.string(), ends_at: z.string(), open: z.boolean() });

/** One line of a breakdown (a district, a school, a class group). */
export const dashboardRowSchema = examDayCountsSchema.extend({
  id: z.number().int(),
  name: z.string(),
  /** The district of a school; empty otherwise. */
  district: z.string(),
});
export type DashboardRow = z.infer<typeof dashboardRowSchema>;

export const autosaveHealthSchema = z.object({
  /** App processes that reported within the last minute. */
  processes: z.number().int(),
  /** Over the last `window_seconds` (about a minute) of every process. */
  window_seconds: z.number(),
  saves_per_minute: z.number(),
  /** Share (0..1) of the saves acknowledged within 2 s; null without saves in the window. */
  acknowledged_within_2s: z.number().nullable(),
  /** Saves answered 503 by the save queue, and requests shed by the load shedder, per minute. */
  rejected_per_minute: z.number(),
  shed_per_minute: z.number(),
});
export type AutosaveHealth = z.infer<typeof autosaveHealthSchema>;

export const dashboardSchema = z.object({
  /** When the figures were computed (ISO 8601): at most a few seconds old. */
  computed_at: z.string(),
  /** The day "today" counts (dd/mm/yyyy, Asia/Ho_Chi_Minh). */
  today: z.string(),
  window: examWindowSchema.nullable(),
  totals: examDayCountsSchema.extend(intFields('parents', 'started_total', 'finished_total')),
  /** Exams started in each hour of today (index 0 = 00:00-00:59, Asia/Ho_Chi_Minh). */
  started_per_hour: z.array(z.number().int()).length(24),
  districts: z.array(dashboardRowSchema),
  /** The units added up by their former province ("Tỉnh cũ", decision 038); empty when no unit has one. */
  former_provinces: z.array(dashboardRowSchema),
  class_groups: z.array(dashboardRowSchema),
  /** Schools with contestants, most active first, filtered and paged by the query. */
  schools: pageOfSchema(dashboardRowSchema),
  autosave: autosaveHealthSchema,
  /** The season's books whose bank holds fewer questions than an exam draws: not offered to families. */
  short_books: z.array(z.object({ id: z.number().int(), name: z.string(), class_group: z.string(), questions: z.number().int() })),
  /** Questions an exam draws (the season's setting), against which a bank is short. */
  questions_per_exam: z.number().int(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
export const dashboardResponseSchema = z.object({ success: z.literal(true), data: dashboardSchema });

// Incidents ------------------------------------------------------------------------------------

export const incidentSearchQuerySchema = z.object({
  /** Digits of the parent's phone, full or part (at least 3). */
  phone: z.string().trim().max(20).optional(),
  /** Part of the child's name, accents and case ignored. */
  name: z.string().trim().max(100).optional(),
  school_id: idSchema().optional(),
});
export type IncidentSearchQuery = z.infer<typeof incidentSearchQuerySchema>;

export const incidentAttemptSchema = z.object({
  id: z.number().int(),
  attempt: z.number().int(),
  book: z.string(),
  /** 1 finished, 2 in progress. */
  status: z.union([z.literal(1), z.literal(2)]),
  start_time: z.string(),
  /** The deadline, extensions included. */
  end_time: z.string(),
  saved_at: z.string().nullable(),
  answers_saved: z.number().int(),
  questions: z.number().int(),
  submitted_at: z.string().nullable(),
  points: z.number().int().nullable(),
  extension_minutes: z.number().int(),
  /** The attempt the organiser's extra attempt allowed. */
  extra: z.boolean(),
  /** In progress and before its deadline: it can still be extended (within the limit). */
  extendable: z.boolean(),
});
export type IncidentAttempt = z.infer<typeof incidentAttemptSchema>;

export const incidentContestantSchema = z.object({
  id: z.number().int(),
  fullname: z.string(),
  parent_phone: z.string(),
  parent_name: z.string(),
  school: z.string(),
  district: z.string(),
  class: z.string(),
  class_group: z.string(),
  attempts_allowed: z.number().int(),
  attempts_left: z.number().int(),
  /** `used`: the contestant has taken more attempts than the contest's, so it can no longer be withdrawn. */
  extra_attempt: z.object({ reason: z.string(), granted_at: z.string(), granted_by: z.string(), used: z.boolean() }).nullable(),
  attempts: z.array(incidentAttemptSchema),
});
export type IncidentContestant = z.infer<typeof incidentContestantSchema>;

export const incidentSearchResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    items: z.array(incidentContestantSchema),
    /** More matched than shown: the organiser narrows the search. */
    more: z.boolean(),
  }),
});

export const contestantIdParamsSchema = z.object({ contestantId: idSchema() });
export const examIdParamsSchema = z.object({ examId: idSchema() });

export const extraAttemptBodySchema = z.object({ reason: z.string() });
export type ExtraAttemptBody = z.infer<typeof extraAttemptBodySchema>;

export const extensionBodySchema = z.object({ minutes: z.number().int(), reason: z.string() });
export type ExtensionBody = z.infer<typeof extensionBodySchema>;

export const incidentContestantResponseSchema = z.object({ success: z.literal(true), data: incidentContestantSchema });

type Problems = Partial<Record<'reason' | 'minutes', string>>;

function reasonProblem(reason: string): string | undefined {
  const length = reason.trim().length;
  if (length === 0) return examDaysMessages.reasonRequired;
  if (length < incidentLimits.reasonMin || length > incidentLimits.reasonMax) return examDaysMessages.reasonLength;
  return undefined;
}

/** Field problems of an extra attempt's body (empty when valid). */
export function extraAttemptProblems(body: ExtraAttemptBody): Problems {
  const reason = reasonProblem(body.reason);
  return reason ? { reason } : {};
}

/**
 * Field problems of an extension; `alreadyMinutes` is what the attempt has been given so far
 * (the total may not pass the limit).
 */
export function extensionProblems(body: ExtensionBody, alreadyMinutes = 0): Problems {
  const problems: Problems = {};
  const reason = reasonProblem(body.reason);
  if (reason) problems.reason = reason;
  const left = incidentLimits.extensionMinutesMax - alreadyMinutes;
  if (!Number.isInteger(body.minutes) || body.minutes < 1) problems.minutes = examDaysMessages.minutesTooFew;
  else if (body.minutes > left) problems.minutes = examDaysMessages.minutesTooMany(left);
  return problems;
}

const addProblems = (problems: Problems, ctx: z.RefinementCtx) => {
  for (const [path, message] of Object.entries(problems)) ctx.addIssue({ code: 'custom', path: [path], message });
};

/** The extra-attempt dialog's form: the server's rules, checked before sending. */
export const extraAttemptFormSchema = extraAttemptBodySchema.superRefine((body, ctx) => addProblems(extraAttemptProblems(body), ctx));

/** The extension dialog's form (minutes typed as text) for an attempt given `alreadyMinutes` so far. */
export const extensionFormSchema = (alreadyMinutes: number) =>
  z.object({ minutes: z.coerce.number<string>(), reason: z.string() }).superRefine((body, ctx) => addProblems(extensionProblems(body, alreadyMinutes), ctx));
