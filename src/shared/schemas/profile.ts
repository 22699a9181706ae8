// Profile (/tai-khoan): the contestants of a parent account. The form and the route share these.
import { z } from 'zod';
import { accountMessages, messages, privacyMessages } from '../messages';
import { CLASS_OTHER_MAX_LENGTH, CLASS_ROOM_OTHER, MAX_CONTESTANTS_PER_ACCOUNT } from '../rules';
import { roleSchema, sessionUserSchema } from './auth';
import { idSchema, intFields } from './common';

const FULLNAME_MAX_LENGTH = 100;

/** A catalogue id chosen in a select: "12" and 12 are both fine; "" (nothing chosen) is not. */
const requiredId = (message: string) => idSchema(message);

/**
 * A typed class as stored: every run of white space (tabs, non-breaking spaces included) becomes
 * one space, none at either end. The only normalisation of class names: the ranking's class key
 * (server/db/class-key.ts) compares stored names as they are, upper-cased.
 */
export const normaliseClassName = (name: string) => name.replace(/\s+/gu, ' ').trim();

/**
 * What a class typed in a file must share with a class of the catalogue to be that class: no
 * leading "Lớp", no white space, upper case ("Lớp 2B", " 2b ", "lớp 2 B" -> "2B").
 */
export const classNameKey = (name: string) =>
  name
    .normalize('NFC')
    .replace(/^\s*lớp(?=[\s\d])/iu, '')
    .replace(/\s+/gu, '')
    .toLocaleUpperCase('vi');

/** A contestant as the profile form sends it: with `id` when it exists already. */
export const contestantInputSchema = z
  .object({
    id: idSchema().nullish(),
    fullname: z
      .string({ error: messages.fullnameRequired })
      .trim()
      .min(1, { error: messages.fullnameRequired })
      .max(FULLNAME_MAX_LENGTH, { error: accountMessages.fullnameTooLong }),
    district_id: requiredId(messages.districtRequired),
    school_id: requiredId(messages.schoolRequired),
    class_group_id: requiredId(messages.classGroupRequired),
    /** A class room of the class group, or 'other' with the class typed in class_room_other. */
    class_room_id: z.union([z.literal(CLASS_ROOM_OTHER), requiredId(messages.classRequired)], { error: messages.classRequired }),
    class_room_other: z.string().nullish(),
    /** A new contestant: the parent confirms the child's own agreement (required; ignored later). */
    child_consent: z.boolean().optional(),
    /**
     * The parent's consent to publish the child's name on the winners' list if the child wins
     * (issue 37.2): asked at enrolment, changeable at any time, also once the child has an exam.
     * Left out: unchanged (a new contestant: not given).
     */
    publish_name: z.boolean().optional(),
  })
  .superRefine(
    (value, ctx) => {
      if (!value.id && value.child_consent !== true) {
        ctx.addIssue({ code: 'custom', path: ['child_consent'], message: privacyMessages.childConsentRequired });
      }
      if (value?.class_room_id !== CLASS_ROOM_OTHER) return;
      const other = typeof value.class_room_other === 'string' ? normaliseClassName(value.class_room_other) : '';
      if (!other) ctx.addIssue({ code: 'custom', path: ['class_room_other'], message: messages.classRequired });
      else if (other.length > CLASS_OTHER_MAX_LENGTH) {
        ctx.addIssue({ code: 'custom', path: ['class_room_other'], message: messages.classOtherTooLong });
      }
    },
    // Also when another field is wrong, so that the form shows every problem at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .transform((value) => ({
    ...value,
    id: value.id ?? undefined,
    class_room_other: value.class_room_id === CLASS_ROOM_OTHER ? normaliseClassName(value.class_room_other ?? '') : null,
  }));

/** POST /api/customer/profile: the whole list of contestants (left out = deleted). */
export const profileUpdateRequestSchema = z.object({
  /** Sent by the screen; read-only (a different phone is refused). */
  phone: z.string().optional(),
  childrens: z.array(contestantInputSchema).max(MAX_CONTESTANTS_PER_ACCOUNT, { error: accountMessages.tooManyContestants }).default([]),
});

// Responses ----------------------------------------------------------------------------------

export const contestantExamSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  /** 1 finished, 2 in progress (the spec's codes). */
  status: z.union([z.literal(1), z.literal(2)]),
  /** Out of 100; null while in progress. */
  points: z.number().int().nullable(),
  book_id: z.number().int(),
  book: z.object({ name: z.string() }),
  /** 1..3 */
  attempt: z.number().int(),
  /** Completion time split in minutes and seconds; null while in progress. */
  time_complete_minutes: z.number().int().nullable(),
  time_complete_seconds: z.number().int().nullable(),
  prediction: z.number().int().nullable(),
  /** ISO 8601 */
  start_time: z.string(),
  /** The deadline, with the organiser's extension included. */
  end_time: z.string(),
  /** Minutes the organiser added to this attempt after an incident (0..20). */
  extension_minutes: z.number().int(),
  /** This attempt is the extra one the organiser gave. */
  extra: z.boolean(),
});

export const contestantSchema = z.object({
  id: z.number().int(),
  /** 1..3: contestant 1 cannot be deleted. */
  position: z.number().int(),
  fullname: z.string(),
  ...intFields('district_id', 'school_id', 'class_group_id'),
  class_room_id: z.union([z.number().int(), z.literal(CLASS_ROOM_OTHER)]),
  class_room_other: z.string().nullable(),
  /** Display name of the class: the class room's name or the typed-in class. */
  class: z.string(),
  school: z.object({ name: z.string(), address: z.string() }),
  class_room: z.object({ name: z.string() }).nullable(),
  /** Oldest attempt first. Any exam locks the contestant's fields. */
  exams: z.array(contestantExamSchema),
  /** Attempts the organiser added to the contest's after an incident (0 or 1). */
  extra_attempts: z.number().int(),
  /** The parent consents to the child's name on the winners' list (issue 37.2); false: "Học sinh lớp …, Trường …". */
  publish_name: z.boolean(),
  /** Carried over into a new season (issue 26): moved up a grade, class group and class to answer again before an exam. */
  class_pending: z.boolean().optional(),
  /** The catalogue moved to a new map (decision 038): the child's school was moved, renamed, merged or closed. */
  school_notice: z.string().optional(),
});

export const profileSchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  name: z.string(),
  is_admin_school: z.union([z.literal(0), z.literal(1)]),
  role: roleSchema,
  /** The school of a school administrator; null for everyone else. */
  school: z.object({ id: z.number().int(), name: z.string(), address: z.string() }).nullable(),
  /** Contestants by position; always empty for school administrators and organisers. */
  childrens: z.array(contestantSchema),
  /** A parent who has not agreed to the current privacy notice: the screen asks first. */
  privacy_consent_required: z.boolean().optional(),
  /** Children of earlier seasons past grade 5 (issue 26): shown as finished, no longer enrolled. */
  finished_childrens: z.array(z.object({ fullname: z.string(), season: z.string() })).optional(),
});

export const profileResponseSchema = z.object({ success: z.literal(true), data: profileSchema });

export const profileUpdateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user: sessionUserSchema,
  /** The profile as saved (new contestants with their ids). */
  data: profileSchema,
});

export type ContestantInput = z.input<typeof contestantInputSchema>;
export type ContestantValues = z.output<typeof contestantInputSchema>;
export type ProfileUpdateRequest = z.input<typeof profileUpdateRequestSchema>;
export type ContestantExam = z.infer<typeof contestantExamSchema>;
export type Contestant = z.infer<typeof contestantSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;

/** What an attempt had from the organiser after an incident, as shown beside it ('' when nothing). */
export function attemptRemarks(exam: Pick<ContestantExam, 'extra' | 'extension_minutes'>): string {
  const remarks = [exam.extra ? 'lượt thi thêm' : '', exam.extension_minutes > 0 ? `gia hạn ${exam.extension_minutes} phút` : ''];
  return remarks.filter(Boolean).join(', ');
}
