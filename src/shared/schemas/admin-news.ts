// The back office's news (/api/admin/news): one schema for the route and the web form.
import { z } from 'zod';
import { idSchema } from './common';
import { pageQuerySchema } from './admin';
import { newsMessages } from '../messages/admin';
import { NEWS_NAME_MAX } from '../rules';

/** Characters of a body as sent (HTML); a long article with many pictures is a few tens of kB. */
export const NEWS_BODY_MAX = 200_000;
/** The picture of a post saved without one (shown in the lists and on the article). */
export const DEFAULT_NEWS_IMAGE = '/images/news/phat-dong-cuoc-thi.svg';


/** True when a body (HTML) shows something: text or a picture. */
export const bodyHasContent = (html: string) => /<img\b/i.test(html) || html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() !== '';

/** Our own pictures only: uploaded ones (/api/media/...) or the site's (/images/...). */
const imagePathSchema = z
  .string()
  .trim()
  .max(300, newsMessages.imageInvalid)
  .regex(/^\/(api\/media|images)\/[A-Za-z0-9_-][A-Za-z0-9._/-]*$/, newsMessages.imageInvalid)
  .refine((path) => !path.includes('..'), newsMessages.imageInvalid);

const fields = {
  name: z.string().trim().min(1, newsMessages.nameRequired).max(NEWS_NAME_MAX, newsMessages.nameTooLong),
  /** Sanitised on the server before it is stored (script, event handlers, javascript: links removed). */
  body_html: z.string().max(NEWS_BODY_MAX, newsMessages.bodyTooLong).refine(bodyHasContent, newsMessages.bodyRequired),
  /** Omitted: the common picture (DEFAULT_NEWS_IMAGE). */
  image: imagePathSchema.optional(),
  published: z.boolean(),
};

/** POST /api/admin/news */
export const newsCreateSchema = z.object({ ...fields, published: fields.published.default(false) });
export type NewsCreateInput = z.input<typeof newsCreateSchema>;
export type NewsCreate = z.output<typeof newsCreateSchema>;

/** PUT /api/admin/news/:id: any of the fields. The slug stays (links already shared keep working). */
export const newsUpdateSchema = z
  .object(fields)
  .partial()
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'Không có gì để sửa.');
export type NewsUpdate = z.output<typeof newsUpdateSchema>;

export const newsIdParamsSchema = z.object({ id: idSchema() });

export const newsListQuerySchema = pageQuerySchema.extend({
  status: z.enum(['published', 'draft']).optional(),
});
export type NewsListQuery = z.output<typeof newsListQuerySchema>;

export const adminNewsItemSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  image: z.string(),
  published: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminNewsItem = z.infer<typeof adminNewsItemSchema>;

export const adminNewsPostSchema = adminNewsItemSchema.extend({ body_html: z.string() });
export type AdminNewsPost = z.infer<typeof adminNewsPostSchema>;

export const adminNewsPostResponseSchema = z.object({ success: z.literal(true), data: adminNewsPostSchema });

/** POST /api/admin/news/images: the picture's address, for the editor and the post's picture. */
export const newsImageResponseSchema = z.object({ success: z.literal(true), data: z.object({ url: z.string() }) });

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { newsMessages };
export { NEWS_NAME_MAX };
