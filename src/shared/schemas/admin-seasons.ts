// The back office's seasons (issue 26, decision 025): the list of seasons, and "Mùa thi mới", whose
// preview (POST /api/admin/seasons/preview) and switch (POST /api/admin/seasons) take the same body.
import { seasonDatesShape } from './admin-contest';
import { z } from 'zod';
import { idSchema } from './common';
import { bookInputSchema } from './admin-books';

export const seasonSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  is_current: z.boolean(),
  exam_starts_at: z.string(),
  exam_ends_at: z.string(),
  results_at: z.string(),
});
export type Season = z.infer<typeof seasonSchema>;

export const seasonListResponseSchema = z.object({ success: z.literal(true), data: z.array(seasonSchema) });

export const newSeasonBookSchema = bookInputSchema.extend({
  /** A book of the current season whose question bank (and cover) the new book starts with; null: an empty bank. */
  copy_questions_from: idSchema().nullable().default(null),
});
export type NewSeasonBook = z.input<typeof newSeasonBookSchema>;

export const copyChoices = ['prize_settings', 'class_teachers', 'school_admins', 'footer'] as const;
export type CopyChoice = (typeof copyChoices)[number];

export const copyChoiceLabels: Record<CopyChoice, { label: string; hint: string }> = {
  prize_settings: { label: 'Giải thưởng và cài đặt bài thi', hint: 'Không chép: giải thưởng theo thể lệ gốc; thời gian làm bài, số câu và số lượt thi vẫn như mùa này.' },
  class_teachers: { label: 'Giáo viên chủ nhiệm', hint: 'Không chép: danh sách giáo viên được xoá để nhập lại (mùa này giữ tên giáo viên của các lớp đạt giải).' },
  school_admins: { label: 'Quản trị trường', hint: 'Không chép: các tài khoản quản trị trường bị khoá (mở lại trong Tài khoản).' },
  footer: { label: 'Chân trang', hint: 'Không chép: chân trang trở về nội dung mặc định của máy chủ.' },
};

export const newSeasonSchema = z
  .object({
    ...seasonDatesShape,
    copy: z.object(Object.fromEntries(copyChoices.map((choice) => [choice, z.boolean()])) as Record<CopyChoice, z.ZodBoolean>),
    books: z.array(newSeasonBookSchema).max(30),
  })
  .strict();
export type NewSeasonInput = z.input<typeof newSeasonSchema>;

/** What the switch will do (the preview) or did (its answer). */
export const seasonPreviewSchema = z.object({
  current: z.object({ id: z.number().int(), name: z.string() }),
  name: z.string(),
  /** Children carried over, per new class group (their class is asked again). */
  carried: z.array(z.object({ class_group_name: z.string(), contestants: z.number().int() })),
  /** Children past grade 5: shown as finished, not carried over. */
  finished: z.number().int(),
  books: z.array(z.object({ name: z.string(), class_group_name: z.string(), questions: z.number().int(), copied_from: z.string().nullable() })),
  /** Questions an exam draws (kept from this season): a book with fewer is not offered to families until its bank is filled. */
  questions_per_exam: z.number().int(),
  prize_tiers: z.number().int(),
  prize_settings_copied: z.boolean(),
  class_teachers: z.number().int(),
  class_teachers_kept: z.boolean(),
  school_admins: z.number().int(),
  school_admins_kept: z.boolean(),
  footer_kept: z.boolean(),
});
export type SeasonPreview = z.infer<typeof seasonPreviewSchema>;

export const seasonPreviewResponseSchema = z.object({ success: z.literal(true), data: seasonPreviewSchema });
export const seasonSwitchResponseSchema = z.object({ success: z.literal(true), data: seasonPreviewSchema.extend({ id: z.number().int() }), message: z.string() });
