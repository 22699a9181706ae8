import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { NewsListQuery } from '../../../../shared/schemas/admin-news';

const itemColumns = ['id', 'slug', 'name', 'image', 'published', 'created_at', 'updated_at'] as const;

/** Posts, newest first, published and drafts; `q` searches the title. */
export async function listNews(db: Db, query: NewsListQuery) {
  let q = db.selectFrom('news_posts');
  if (query.q) q = q.where('name', 'ilike', `%${query.q.replace(/[%_\\]/g, '\\$&')}%`);
  if (query.status) q = q.where('published', '=', query.status === 'published');
  const [items, total] = await Promise.all([
    q
      .select(itemColumns)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

export const findNews = (db: Db, id: number) =>
  db.selectFrom('news_posts').select([...itemColumns, 'body_html']).where('id', '=', id).executeTakeFirst();

/** The row, locked until the transaction ends (two organisers editing one post take turns). */
export const findNewsForUpdate = (db: Db, id: number) =>
  db.selectFrom('news_posts').select([...itemColumns, 'body_html']).where('id', '=', id).forUpdate().executeTakeFirst();

/** Slugs that are `base` or `base-<n>` (slugs hold only a-z, 0-9 and dashes: no LIKE wildcards). */
export async function slugsLike(db: Db, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('news_posts')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return rows.map((row) => row.slug);
}

export interface NewsValues {
  slug: string;
  name: string;
  image: string;
  body_html: string;
  published: boolean;
  created_at: Date;
  updated_at: Date;
}

export const insertNews = (db: Db, values: NewsValues) =>
  db.insertInto('news_posts').values(values).returning([...itemColumns, 'body_html']).executeTakeFirstOrThrow();

export const updateNews = (db: Db, id: number, values: Partial<Omit<NewsValues, 'slug' | 'created_at'>>) =>
  db.updateTable('news_posts').set(values).where('id', '=', id).returning([...itemColumns, 'body_html']).executeTakeFirstOrThrow();

export const deleteNews = (db: Db, id: number) => db.deleteFrom('news_posts').where('id', '=', id).execute();
