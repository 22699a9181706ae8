import type { Db } from '../../db/client';
import { sanitizeNewsHtml } from './sanitize';

export const listPublishedNews = (db: Db, limit = 50) =>
  db
    .selectFrom('news_posts')
    .select(['slug', 'name', 'image', 'created_at'])
    .where('published', '=', true)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();

export const findPublishedNews = (db: Db, slug: string) =>
  db
    .selectFrom('news_posts')
    .select(['slug', 'name', 'image', 'created_at', 'body_html'])
    .where('slug', '=', slug)
    .where('published', '=', true)
    .executeTakeFirst();

export interface NewNewsPost {
  slug: string;
  name: string;
  image: string;
  bodyHtml: string;
  createdAt?: Date;
}

/** Stores a post with its body sanitised. */
export async function insertNewsPost(db: Db, post: NewNewsPost) {
  await db
    .insertInto('news_posts')
    .values({
      slug: post.slug,
      name: post.name,
      image: post.image,
      body_html: sanitizeNewsHtml(post.bodyHtml),
      ...(post.createdAt ? { created_at: post.createdAt } : {}),
    })
    .execute();
}
