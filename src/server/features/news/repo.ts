import type { Db } from '../../db/client';

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
