// Certificates ready to print (issue 37, part 3): the organiser's signature and seal uploaded in
// the site settings, and a school's certificates in one PDF built in the background.
import { z } from 'zod';
import { idParam, seasonParam } from './common';

export const certificateImageKinds = ['signature', 'seal'] as const;
export const certificateImageKindSchema = z.enum(certificateImageKinds);
export type CertificateImageKind = z.infer<typeof certificateImageKindSchema>;

export const certificateImageLabels: Record<CertificateImageKind, string> = {
  signature: 'Chữ ký của ban tổ chức',
  seal: 'Con dấu của ban tổ chức',
};

export const certificateImageMessages = {
  notPng: 'Tệp không phải ảnh PNG. Hãy chọn ảnh PNG có nền trong suốt.',
  tooLarge: 'Ảnh quá lớn: tối đa 1 MB.',
  tooManyPixels: (width: number, height: number) => `Ảnh có kích thước ${width} × ${height} điểm ảnh: tối đa 2000 × 2000.`,
  noTransparency: 'Ảnh cần có nền trong suốt (PNG có kênh alpha), để in chồng lên giấy chứng nhận.',
} as const;

export const certificateImageParamsSchema = z.object({ kind: certificateImageKindSchema });

export const certificateImageSchema = z.object({
  kind: certificateImageKindSchema,
  /** The stored image (/api/media/...), as printed. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  file_name: z.string(),
  /** hh:mm dd/mm/yyyy, Asia/Ho_Chi_Minh (formatDateTime). */
  uploaded: z.string(),
});
export type CertificateImage = z.infer<typeof certificateImageSchema>;

export const certificateImagesResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ signature: certificateImageSchema.nullable(), seal: certificateImageSchema.nullable() }),
});
export type CertificateImagesResponse = z.infer<typeof certificateImagesResponseSchema>;

// The school's certificates in one PDF ----------------------------------------------------------

export const bundleStatuses = ['queued', 'building', 'ready', 'failed'] as const;
export const bundleStatusSchema = z.enum(bundleStatuses);

export const bundleMessages = {
  noCertificates: 'Chưa có giấy chứng nhận nào để in: kết quả chưa công bố, lớp chưa có học sinh dự thi, hoặc giấy chứng nhận đang được cấp (hãy thử lại sau ít phút).',
  classNotFound: 'Lớp này không có ở trường của bạn.',
  bundleNotFound: 'Không tìm thấy tệp giấy chứng nhận này.',
  notReady: 'Tệp chưa tạo xong.',
  gaveUp: 'Không tạo được tệp sau nhiều lần thử. Hãy bấm tạo lại; nếu vẫn lỗi, hãy báo ban tổ chức.',
  failed: 'Không tạo được tệp. Hãy bấm tạo lại; nếu vẫn lỗi, hãy báo ban tổ chức.',
} as const;

export const bundleRequestSchema = z.object({
  /** A class of the school as the report names it; absent or empty: the whole school. */
  class: z.string().trim().max(100, { error: 'Tên lớp quá dài.' }).optional(),
  season: seasonParam,
});
export type BundleRequest = z.infer<typeof bundleRequestSchema>;

export const bundleSchema = z.object({
  id: z.number().int(),
  /** null: the whole school. */
  class: z.string().nullable(),
  status: bundleStatusSchema,
  total: z.number().int(),
  done: z.number().int(),
  /** What went wrong, for a failed build. */
  error: z.string().nullable(),
  /** The PDF, once ready. */
  pdf_url: z.string().nullable(),
  /** hh:mm dd/mm/yyyy, Asia/Ho_Chi_Minh (formatDateTime). */
  created: z.string(),
});
export type Bundle = z.infer<typeof bundleSchema>;

export const bundleResponseSchema = z.object({ success: z.literal(true), data: bundleSchema });
export const bundlesResponseSchema = z.object({ success: z.literal(true), data: z.array(bundleSchema) });
export const bundleParamsSchema = z.object({ id: idParam('id') });
