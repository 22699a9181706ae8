// Back office, certificates (/api/admin/certificates): the background drawing's progress, finding
// a certificate by code or holder, and revoking one with a reason.
import { z } from 'zod';
import { certificateAdminMessages as m } from '../messages';
import { certificateCodeSchema, certificateKindSchema } from './certificates';

export const certificateProgressSchema = z.object({
  /** The results are published: certificates are being issued and drawn. */
  published: z.boolean(),
  /** Every holder of the latest computation has its certificates (false while the job walks them). */
  issued: z.boolean(),
  total: z.number().int(),
  ready: z.number().int(),
  /** Waiting to be drawn (or drawn again). */
  pending: z.number().int(),
  /** Drawing failed (retried a few times, then left for the organiser to see). */
  failed: z.number().int(),
  revoked: z.number().int(),
  /** Certificates drawn per minute: those of the last minute over the time since the first of them (at least 5 s). */
  per_minute: z.number(),
  /** Estimated seconds until every pending certificate is drawn; null when nothing is drawing. */
  seconds_left: z.number().int().nullable(),
  failures: z.array(
    z.object({ code: z.string(), kind: certificateKindSchema, holder: z.string(), attempts: z.number().int(), error: z.string(), retrying: z.boolean() }),
  ),
});
export const certificateProgressResponseSchema = z.object({ success: z.literal(true), data: certificateProgressSchema });
export type CertificateProgress = z.infer<typeof certificateProgressSchema>;

export const certificateSearchQuerySchema = z.object({
  q: z.string().trim().min(1, { error: m.queryRequired }).max(100),
});

export const adminCertificateSchema = z.object({
  code: z.string(),
  kind: certificateKindSchema,
  title: z.string(),
  holder: z.string(),
  /** The pupil's school (empty for a school's certificate). */
  school: z.string(),
  issued_at: z.string(),
  ready: z.boolean(),
  revoked_at: z.string().nullable(),
  revoked_reason: z.string().nullable(),
  /** A revoked certificate: the code of the one in force that replaced it (its holder still entitled), or null. */
  replaced_by: z.string().nullable(),
});
export type AdminCertificate = z.infer<typeof adminCertificateSchema>;
export const certificateSearchResponseSchema = z.object({ success: z.literal(true), data: z.array(adminCertificateSchema) });

export const certificateCodeParamsSchema = z.object({ code: certificateCodeSchema });
export const revokeCertificateSchema = z.object({
  reason: z
    .string({ error: m.reasonRequired })
    .trim()
    .min(1, { error: m.reasonRequired })
    .max(500, { error: m.reasonTooLong }),
});
/** What the route reads; the reason's rules (revokeCertificateSchema) answer 422 with the field's message. */
export const revokeCertificateBodySchema = z.object({ reason: z.string().max(5000).optional() });
export type RevokeCertificateInput = z.infer<typeof revokeCertificateSchema>;
export const revokeCertificateResponseSchema = z.object({ success: z.literal(true), data: adminCertificateSchema });
