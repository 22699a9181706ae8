// News in the back office: create, edit, publish/unpublish, delete; each change with its audit
// entry in the same transaction. Bodies are sanitised here, before they are stored.
import { messages } from '../../../../shared/messages';
import { bodyHasContent, DEFAULT_NEWS_IMAGE, newsMessages, type NewsCreate, type NewsListQuery, type NewsUpdate } from '../../../../shared/schemas/admin-news';
import { slugify, uniqueSlug } from '../../../../shared/slug';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import { appError, notFound } from '../../../lib/errors';
import { sanitizeNewsHtml } from '../../../lib/sanitize-html';
import { storeImage } from '../../media';
import { recordAudit } from '../kit/audit';
import * as repo from './repo';
import { isUniqueViolation } from '../../../db/errors';

type Deps = Pick<Services, 'db' | 'clock'>;
type Actor = Pick<AuthUser, 'id' | 'phone'>;
type Post = NonNullable<Awaited<ReturnType<typeof repo.findNews>>>;


/** Widest picture of a post or inside its body (the article column is narrower). */
const NEWS_IMAGE_WIDTH = 1200;
/** Characters of a body kept in an audit entry: enough to see what changed, not the whole article. */
const AUDIT_BODY_CHARS = 2000;

const toApi = <T extends { created_at: Date; updated_at: Date }>(post: T) => ({
  ...post,
  created_at: post.created_at.toISOString(),
  updated_at: post.updated_at.toISOString(),
});

function cleanBody(html: string): string {
  const clean = sanitizeNewsHtml(html);
  // A body of nothing but script (or other things the sanitiser removes) is an empty body.
  if (!bodyHasContent(clean)) throw appError('invalid_input', newsMessages.bodyRequired, { body_html: newsMessages.bodyRequired });
  return clean;
}

type Field = 'name' | 'body_html' | 'image' | 'published';
/** What an audit entry keeps of a post's fields (a long body cut short). */
function auditView(post: Pick<Post, Field>, fields: readonly Field[]) {
  const view: Record<string, unknown> = {};
  for (const field of fields) {
    const value = post[field];
    view[field] = typeof value === 'string' && value.length > AUDIT_BODY_CHARS ? `${value.slice(0, AUDIT_BODY_CHARS)}…` : value;
  }
  return view;
}
const ALL_FIELDS: readonly Field[] = ['name', 'image', 'published', 'body_html'];

export async function listNews(deps: Pick<Services, 'db'>, query: NewsListQuery) {
  const { items, total } = await repo.listNews(deps.db, query);
  return { items: items.map(toApi), total, page: query.page, per_page: query.per_page };
}

export async function getNews(deps: Pick<Services, 'db'>, id: number) {
  const post = await repo.findNews(deps.db, id);
  if (!post) throw notFound(messages.notFound);
  return toApi(post);
}

/**
 * A new post with a slug made from its title, unique (-2, -3 ...). Two posts of the same title
 * saved at the same instant may pick the same slug: the UNIQUE index refuses the second, which is
 * tried again with the next free slug, and after three such refusals answered 409.
 */
export async function createNews(deps: Deps, actor: Actor, input: NewsCreate) {
  const body = cleanBody(input.body_html);
  const base = slugify(input.name);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const post = await deps.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        const created = await repo.insertNews(trx, {
          slug: uniqueSlug(base, await repo.slugsLike(trx, base)),
          name: input.name,
          image: input.image ?? DEFAULT_NEWS_IMAGE,
          body_html: body,
          published: input.published,
          created_at: now,
          updated_at: now,
        });
        await recordAudit(trx, actor, {
          kind: 'news.create',
          summary: `Thêm tin "${created.name}" (${created.published ? 'đã đăng' : 'bản nháp'})`,
          details: { id: created.id, slug: created.slug, after: auditView(created, ALL_FIELDS) },
        });
        return created;
      });
      return toApi(post);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= 3) throw appError('name_taken', newsMessages.slugTaken);
    }
  }
}

/** Any of the fields; nothing changed, nothing written. Publishing alone is 'news.publish' / 'news.unpublish'. */
export async function updateNews(deps: Deps, actor: Actor, id: number, input: NewsUpdate) {
  const body = input.body_html === undefined ? undefined : cleanBody(input.body_html);
  const post = await deps.db.transaction().execute(async (trx) => {
    const before = await repo.findNewsForUpdate(trx, id);
    if (!before) throw notFound(messages.notFound);
    const next = { name: input.name, body_html: body, image: input.image, published: input.published };
    const changed = ALL_FIELDS.filter((field) => next[field] !== undefined && next[field] !== before[field]);
    if (changed.length === 0) return before;
    const values = Object.fromEntries(changed.map((field) => [field, next[field]]));
    const after = await repo.updateNews(trx, id, { ...values, updated_at: deps.clock.now() });
    const publishing = changed.length === 1 && changed[0] === 'published';
    const kind = publishing ? (after.published ? 'news.publish' : 'news.unpublish') : 'news.update';
    const verb = publishing ? (after.published ? 'Đăng' : 'Gỡ (về bản nháp)') : 'Sửa';
    await recordAudit(trx, actor, {
      kind,
      summary: `${verb} tin "${after.name}"`,
      details: { id, slug: after.slug, before: auditView(before, changed), after: auditView(after, changed) },
    });
    return after;
  });
  return toApi(post);
}

export async function deleteNews(deps: Pick<Services, 'db'>, actor: Actor, id: number) {
  await deps.db.transaction().execute(async (trx) => {
    const before = await repo.findNewsForUpdate(trx, id);
    if (!before) throw notFound(messages.notFound);
    await repo.deleteNews(trx, id);
    await recordAudit(trx, actor, {
      kind: 'news.delete',
      summary: `Xoá tin "${before.name}"`,
      details: { id, slug: before.slug, before: auditView(before, ALL_FIELDS) },
    });
  });
}

/** An uploaded picture (checked by content, re-encoded as WebP) for a post or its body. */
export async function uploadNewsImage(deps: Pick<Services, 'db'>, actor: Actor, file: { fileName: string; bytes: Buffer }) {
  return deps.db.transaction().execute(async (trx) => {
    const url = await storeImage(trx, file.bytes, { maxWidth: NEWS_IMAGE_WIDTH });
    await recordAudit(trx, actor, {
      kind: 'news.image_upload',
      summary: `Tải ảnh lên cho tin tức: ${file.fileName || 'ảnh'}`,
      details: { file: file.fileName, url, bytes: file.bytes.length },
    });
    return { url };
  });
}
