// The back office's accounts (/api/admin/accounts, /api/admin/school-admins): find an account,
// see it, create school administrators (one by one or by import), issue a set-password link,
// lock and unlock. The routes and the web forms use these schemas.
import { z } from 'zod';
import { idSchema } from './common';
import { importResponseSchema, pageQuerySchema, sortQuery } from './admin';
import { mobilePhoneSchema, roleSchema } from './auth';
import { adminAccountMessages } from '../messages/admin';


/** What each role is called on the screens. */
export const roleLabels = { parent: 'phụ huynh', school_admin: 'quản trị trường', organiser: 'ban tổ chức', province_viewer: 'xem toàn tỉnh', unit_viewer: 'xem đơn vị' } as const;

export const personNameSchema = z
  .string({ error: adminAccountMessages.nameRequired })
  .trim()
  .min(1, { error: adminAccountMessages.nameRequired })
  .max(120, { error: adminAccountMessages.nameTooLong });

// Requests -----------------------------------------------------------------------------------

/** The accounts list's sortable columns (`sort`), named as its items' fields. */
export const accountSortKeys = ['phone', 'name', 'role', 'school_name', 'created_at', 'locked_at'] as const;

/** GET /accounts?q=<part of a phone>&role=&sort=&dir= */
export const accountsQuerySchema = pageQuerySchema.extend({ role: roleSchema.optional(), ...sortQuery(accountSortKeys) });
export type AccountsQuery = z.infer<typeof accountsQuerySchema>;

export const accountParamsSchema = z.object({ id: idSchema() });

/** POST /school-admins (the form: selects send numbers as text). */
export const createSchoolAdminSchema = z.object({
  phone: mobilePhoneSchema,
  name: personNameSchema,
  district_id: idSchema(adminAccountMessages.districtRequired),
  school_id: idSchema(adminAccountMessages.schoolRequired),
});
export type CreateSchoolAdminInput = z.input<typeof createSchoolAdminSchema>;

// Responses ----------------------------------------------------------------------------------

export const accountSummarySchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  name: z.string(),
  role: roleSchema,
  school_name: z.string().nullable(),
  district_name: z.string().nullable(),
  /** A viewer's scope (issue 41): "Toàn tỉnh" or its units' names; null for any other role. */
  scope: z.string().nullable(),
  created_at: z.string(),
  locked_at: z.string().nullable(),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const accountExamSchema = z.object({
  id: z.number().int(),
  attempt: z.number().int(),
  book: z.string(),
  /** The spec's exam status: 2 in progress, 1 submitted. */
  status: z.union([z.literal(1), z.literal(2)]),
  points: z.number().nullable(),
  correct_count: z.number().int().nullable(),
  start_time: z.string(),
  submitted_at: z.string().nullable(),
});

export const accountContestantSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  fullname: z.string(),
  school: z.string(),
  class_name: z.string(),
  exams: z.array(accountExamSchema),
});
export type AccountContestant = z.infer<typeof accountContestantSchema>;

export const accountDetailSchema = accountSummarySchema.extend({
  /** Live sessions (devices logged in now). */
  live_sessions: z.number().int(),
  contestants: z.array(accountContestantSchema),
});
export type AccountDetail = z.infer<typeof accountDetailSchema>;

export const accountDetailResponseSchema = z.object({ success: z.literal(true), data: accountDetailSchema });

/** A one-time set-password link /doi-mat-khau/{token}, to hand to its owner. */
export const passwordLinkSchema = z.object({ phone: z.string(), url: z.string() });
export type PasswordLink = z.infer<typeof passwordLinkSchema>;

/** A link just issued (reset link, a new school administrator): shown and sent by SMS. */
export const issuedLinkResponseSchema = z.object({
  success: z.literal(true),
  data: passwordLinkSchema.extend({
    account_id: z.number().int(),
    expires_at: z.string(),
    sms_sent: z.boolean(),
    /** Set when the SMS failed: the change is stored anyway. */
    message: z.string().optional(),
  }),
});

export const lockResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ locked_at: z.string().nullable(), sessions_ended: z.number().int() }),
});

/** POST /school-admins/import: the counts, a link per created account, the phones whose SMS failed. */
export const schoolAdminImportResponseSchema = importResponseSchema({
  links: z.array(passwordLinkSchema),
  sms_failed: z.array(z.string()),
  message: z.string().optional(),
});

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { adminAccountMessages };
