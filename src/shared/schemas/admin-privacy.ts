// The organiser's side of personal data (issue 15, /quan-tri/du-lieu-ca-nhan): the record of
// processing activities, the retention status, and requests made by phone call (a copy of an
// account's data, its deletion), each with a reason that goes into the audit log.
import { z } from 'zod';
import { intFields } from './common';
import { privacyAdminMessages } from '../messages/admin';
import { PRIVACY_REASON_MAX, PRIVACY_REASON_MIN } from '../rules';



/** The body of a request carried out for a data subject: why (who asked, when, how). */
export const privacyRequestSchema = z.object({
  reason: z.string().trim().min(PRIVACY_REASON_MIN, privacyAdminMessages.reasonRequired).max(PRIVACY_REASON_MAX, privacyAdminMessages.reasonTooLong),
});
export type PrivacyRequest = z.infer<typeof privacyRequestSchema>;

export const eraseResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ contestants_deleted: z.number().int(), contestants_anonymised: z.number().int() }),
});

const retentionRunSchema = z.object({
  ran_at: z.string(),
  ...intFields('accounts_erased', 'contestants_anonymised', 'contestants_deleted', 'audit_entries_deleted', 'prize_records_deleted'),
});

export const privacyOverviewSchema = z.object({
  /** The record of processing activities (Decree 13/2023), generated from the settings. */
  record: z.object({
    title: z.string(),
    generated_at: z.string(),
    sections: z.array(z.object({ title: z.string(), items: z.array(z.string()) })),
  }),
  retention: z.object({
    months: z.number().int(),
    contest: z.string().nullable(),
    results_at: z.string().nullable(),
    /** When the data of accounts last active for the current contest will be removed. */
    ends_at: z.string().nullable(),
    /** Accounts past the limit now (the next daily run removes them). */
    due_accounts: z.number().int(),
    runs: z.array(retentionRunSchema),
  }),
  counts: z.object({
    ...intFields('parents', 'parents_consented_current', 'contestants', 'contestants_anonymised', 'accounts_deleted', 'prize_records'),
  }),
});
export type PrivacyOverview = z.infer<typeof privacyOverviewSchema>;
export const privacyOverviewResponseSchema = z.object({ success: z.literal(true), data: privacyOverviewSchema });

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { privacyAdminMessages };
export { PRIVACY_REASON_MAX, PRIVACY_REASON_MIN };
