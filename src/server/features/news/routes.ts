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

// Public pages: read from a replica when one is usable (db/replicas.ts).
export function registerNewsRoutes(api: Api, services: Services) {
  api.get('/blogs', { schema: { summary: 'Danh sách tin tức đã đăng', response: { 200: newsListResponseSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return { success: true as const, data: (await readFromReplica(services, repo.listPublishedNews)).map(summary) };
  });

  api.get(
    '/blog/:slug',
    { schema: { summary: 'Một bài tin theo đường dẫn (slug)', params: newsSlugParamsSchema, response: { 200: newsArticleResponseSchema } } },
    async (request, reply) => {
      const post = await readFromReplica(services, (db) => repo.findPublishedNews(db, request.params.slug));
      if (!post) throw notFound(messages.notFound);
      reply.header('cache-control', 'public, max-age=60');
      // Sanitised when stored; once more on the way out, in case a row was written by hand.
      return { success: true as const, data: { ...summary(post), body: sanitizeNewsHtml(post.body_html) } };
    },
  );
}
