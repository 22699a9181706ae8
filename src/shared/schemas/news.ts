import { z } from 'zod';

export const newsSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  image: z.string(),
  /** dd/mm/yyyy in Asia/Ho_Chi_Minh */
  created_at_format: z.string(),
  created_at: z.string(),
});
export const newsArticleSchema = newsSummarySchema.extend({ body: z.string() });

export const newsListResponseSchema = z.object({ success: z.literal(true), data: z.array(newsSummarySchema) });
export const newsArticleResponseSchema = z.object({ success: z.literal(true), data: newsArticleSchema });
export const newsSlugParamsSchema = z.object({ slug: z.string().min(1).max(200) });

export type NewsSummary = z.infer<typeof newsSummarySchema>;
export type NewsArticle = z.infer<typeof newsArticleSchema>;
