// Consent, the parent's copy of their data and the deletion of the account (issue 15).
import { z } from 'zod';
import { intFields } from './common';
import { privacyMessages } from '../messages';
import { otpSchema, requiredConsent } from './auth';

/** POST /api/privacy/consent: the parent agrees to the current notice. */
export const consentRequestSchema = z.object({ consent: requiredConsent(privacyMessages.consentRequired) });

export const consentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  version: z.string(),
  consented_at: z.string(),
});

/** POST /api/customer/delete-account: the code sent by POST /api/customer/delete-account/send-otp. */
export const deleteAccountRequestSchema = z.object({ otp: otpSchema });

// The parent's copy (GET /api/customer/my-data) ----------------------------------------------

const iso = z.string();
const isoOrNull = z.string().nullable();

export const myDataExamSchema = z.object({
  id: z.number().int(),
  book: z.string(),
  attempt: z.number().int(),
  /** 'Đã nộp' or 'Đang làm'. */
  status: z.string(),
  start_time: iso,
  end_time: iso,
  submitted_at: isoOrNull,
  points: z.number().int().nullable(),
  correct_count: z.number().int().nullable(),
  duration_seconds: z.number().int().nullable(),
  prediction: z.number().int().nullable(),
  /** Every question as shown, with the answer the contestant chose (null: none). */
  questions: z.array(
    z.object({
      question: z.string(),
      answers: z.array(z.string()),
      chosen_answer: z.string().nullable(),
    }),
  ),
});

/** A practice round ("Thi thử"): no book, attempt or points, the rest as an exam. */
export const myDataPracticeSchema = myDataExamSchema.omit({ book: true, attempt: true, points: true });

export const myDataSchema = z.object({
  exported_at: iso,
  privacy_notice_version: z.string(),
  account: z.object({
    id: z.number().int(),
    phone: z.string(),
    name: z.string(),
    role: z.string(),
    created_at: iso,
  }),
  consents: z.array(z.object({ subject: z.string(), version: z.string(), consented_at: iso })),
  contestants: z.array(
    z.object({
      id: z.number().int(),
      position: z.number().int(),
      fullname: z.string(),
      district: z.string(),
      school: z.string(),
      class_group: z.string(),
      class: z.string(),
      created_at: iso,
      exams: z.array(myDataExamSchema),
      practice_rounds: z.array(myDataPracticeSchema),
      results: z.array(
        z.object({
          contest: z.string(),
          ...intFields('points', 'rank', 'school_rank'),
          prize: z.string().nullable(),
        }),
      ),
      certificates: z.array(z.object({ code: z.string(), kind: z.string(), issued_at: iso })),
    }),
  ),
  /** Logins (sessions started) per day in Vietnam, dd/mm/yyyy. */
  logins: z.array(z.object({ date: z.string(), count: z.number().int() })),
});

export type ConsentRequest = z.input<typeof consentRequestSchema>;
export type ConsentResponse = z.infer<typeof consentResponseSchema>;
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>;
export type MyData = z.infer<typeof myDataSchema>;
export type MyDataPractice = z.infer<typeof myDataPracticeSchema>;

export const myDataResponseSchema = z.object({ success: z.literal(true), data: myDataSchema });
export type MyDataResponse = z.infer<typeof myDataResponseSchema>;
