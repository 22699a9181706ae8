import { messages } from '../../../shared/messages';
import { formatDate } from '../../../shared/format';
import { newsArticleResponseSchema, newsListResponseSchema, newsSlugParamsSchema } from '../../../shared/schemas/news';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { notFound } from '../../lib/errors';
import { readFromReplica } from '../../db/replicas';
import * as repo from './repo';
import { sanitizeNewsHtml } from '../../lib/sanitize-html';

const summary = (post: { slug: string; name: string; image: string; created_at: Date }) => ({
  slug: post.slug,
  name: post.name,
  image: post.image,
  created_at: post.created_at.toISOString(),
  created_at_format: formatDate(post.created_at),
});

/** GET /api/blogs's answer; also what the news page is drawn with (web-pages.ts). */
export const newsListAnswer = async (services: Services) => ({
  success: true as const,
  data: (await readFromReplica(services, repo.listPublishedNews)).map(summary),
});

/** GET /api/blog/:slug's answer, or null when no published post has that slug; also what an article's page is drawn with. */
export async function newsArticleAnswer(services: Services, slug: string) {
  const post = await readFromReplica(services, (db) => repo.findPublishedNews(db, slug));
  // Sanitised when stored; once more on the way out, in case a row was written by hand.
  return post ? { success: true as const, data: { ...summary(post), body: sanitizeNewsHtml(post.body_html) } } : null;
}

// Public pages: read from a replica when one is usable (db/replicas.ts).
export function registerNewsRoutes(api: Api, services: Services) {
  api.get('/blogs', { schema: { summary: 'Danh sách tin tức đã đăng', response: { 200: newsListResponseSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return newsListAnswer(services);
  });

  api.get(
    '/blog/:slug',
    { schema: { summary: 'Một bài tin theo đường dẫn (slug)', params: newsSlugParamsSchema, response: { 200: newsArticleResponseSchema } } },
    async (request, reply) => {
      const answer = await newsArticleAnswer(services, request.params.slug);
      if (!answer) throw notFound(messages.notFound);
      reply.header('cache-control', 'public, max-age=60');
      return answer;
    },
  );
}
