// Certificates: GET /api/chilren-certificate (spelled so, spec section 7), the certificate files
// and the public verification GET /api/certificates/verify/:code.
import { z } from 'zod';
import { idParam } from './common';
import { normaliseCertificateCode } from '../certificate-code';

export const certificateKindSchema = z.enum(['participation', 'prize', 'top30', 'school']);

/** A certificate code as printed (groups of letters and digits joined by '-'), read as typed: any case, spaces. */
export const certificateCodeSchema = z
  .string()
  .transform(normaliseCertificateCode)
  .pipe(z.string().regex(/^[A-Z0-9-]{8,32}$/, { error: 'Mã chứng nhận không hợp lệ.' }));

export const childCertificateQuerySchema = z.object({ child_id: idParam('child_id') });

export const certificateViewSchema = z.object({
  kind: certificateKindSchema,
  title: z.string(),
  code: z.string(),
  /** Authenticated download (bearer token): the A4 PDF. */
  pdf_url: z.string(),
  /** Authenticated PNG preview of the same page. */
  image_url: z.string(),
  /** Public page that confirms the certificate. */
  verify_url: z.string(),
});

export const childCertificateResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    id: z.number().int(),
    fullname: z.string(),
    class: z.string(),
    school: z.object({ name: z.string(), address: z.string() }),
    class_room: z.object({ name: z.string() }).nullable(),
    /** The participation certificate (PDF), once the child has finished an exam. */
    path_certificate: z.string().nullable(),
    /** The top-30-of-the-school certificate (PDF), from the results date. */
    path_top_30: z.string().nullable(),
    is_top_personal: z.union([z.literal(0), z.literal(1)]),
    is_top_30: z.union([z.literal(0), z.literal(1)]),
    prize_personal: z
      .object({
        prize_name: z.string(),
        /** Đồng */
        money: z.number().int(),
        desc: z.string(),
        /** Preview of the prize certificate. */
        image: z.string(),
      })
      .nullable(),
    certificates: z.array(certificateViewSchema),
    /** Prizes the organisers withdrew (results published): the family is told, not left to guess. */
    withdrawn_prizes: z.array(z.object({ kind: z.enum(['individual', 'school_pupils']), prize_name: z.string() })),
    /** The prize is withheld while the organisers review the result (decision 027): this neutral message with the hotline, or null. */
    results_held: z.string().nullable(),
    /**
     * Certificates the organisers revoked (void codes, e.g. a misprint). The prize they stood for
     * is kept unless withdrawn; `reissued`: a new certificate of that kind is in `certificates`.
     */
    revoked_certificates: z.array(z.object({ kind: certificateKindSchema, title: z.string(), code: z.string(), revoked_date: z.string(), reissued: z.boolean() })),
  }),
  exam_lastest: z.object({ book_id: z.number().int(), slug: z.string() }).nullable(),
  /** Results and prizes are shown from this moment (ISO) — dd/mm/yyyy in results_date. */
  results_at: z.string(),
  results_date: z.string(),
  results_published: z.boolean(),
  /** The season of this row of the child (issue 26): an earlier season's page is history, with no exam to take. */
  season: z.object({ name: z.string(), is_current: z.boolean() }),
});

export const verifyParamsSchema = z.object({ code: certificateCodeSchema });
export const verifyResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    code: z.string(),
    kind: certificateKindSchema,
    title: z.string(),
    /** The holder's name as printed (a pupil or a school); empty when erased. */
    name: z.string(),
    contest: z.string(),
    /** dd/mm/yyyy as printed */
    date: z.string(),
    /** Present when the organisers revoked it: the day (dd/mm/yyyy) and a neutral line. */
    revoked: z.object({ date: z.string(), message: z.string() }).optional(),
    /** Present when the holder's family had their data erased: the name is then empty. */
    erased: z.object({ date: z.string(), message: z.string() }).optional(),
    /** The season the certificate is of (issue 26); `current` false: an earlier, finished season. */
    season: z.object({ name: z.string(), current: z.boolean() }).optional(),
  }),
});

export const certificateFileParamsSchema = z.object({ code: certificateCodeSchema, format: z.enum(['pdf', 'png']) });

export type CertificateView = z.infer<typeof certificateViewSchema>;
export type ChildCertificateResponse = z.infer<typeof childCertificateResponseSchema>;
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;
