// News article (spec section 2): the name as title, the date, the image and the body HTML. The
// body is sanitised by the server (allow-listed tags, our own images only) before it gets here.
import { useEffect, useState, type MouseEvent } from 'react';
import { ArrowLeft, CalendarDays } from 'lucide-react';
import type { NewsArticle } from '../../../shared/schemas/news';
import { api, ApiRequestError } from '../../lib/api-client';
import { pageData } from '../../lib/page-data';
import { Link, useNavigate, useParams } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import { NotFoundPage } from '../../components/not-found-page';
import './news.css';

type State = { status: 'loading' } | { status: 'ready'; article: NewsArticle } | { status: 'missing' } | { status: 'failed' };

export function NewsArticlePage() {
  const { slug } = useParams<{ slug: string }>();
  const apiPath = `/blog/${encodeURIComponent(slug)}`;
  // The article the server drew the page with, when it did (lib/page-data.ts).
  const [drawn] = useState(() => pageData<{ data: NewsArticle }>(apiPath)?.data);
  const [state, setState] = useState<State>(drawn ? { status: 'ready', article: drawn } : { status: 'loading' });
  const navigate = useNavigate();
  usePageTitle(state.status === 'ready' ? state.article.name : 'Tin tức');

  useEffect(() => {
    if (drawn?.slug === slug) return;
    const controller = new AbortController();
    setState({ status: 'loading' });
    api.get<{ data: NewsArticle }>(apiPath, { signal: controller.signal }).then(
      (response) => setState({ status: 'ready', article: response.data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiRequestError && error.status === 404) {
          setState({ status: 'missing' });
          return;
        }
        console.warn('Không tải được bài viết', error);
        setState({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [apiPath, drawn, slug]);

  // Links to our own pages inside the body (e.g. /the-le) stay in the app instead of reloading it.
  const followInternalLink = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!link || !href?.startsWith('/') || href.startsWith('//') || link.target === '_blank') return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };

  if (state.status === 'missing') return <NotFoundPage />;

  return (
    <div className="container page news-page">
      <nav className="news-back" aria-label="Đường dẫn">
        <Link href="/tin-tuc" className="icon-link">
          <ArrowLeft aria-hidden="true" size={18} />
          Tất cả tin tức
        </Link>
      </nav>
      {state.status === 'ready' ? (
        <article className="news-article">
          <header className="news-article-head">
            <h1 className="news-article-title">{state.article.name}</h1>
            <p className="news-article-date">
              <CalendarDays aria-hidden="true" size={18} />
              <time dateTime={state.article.created_at}>{state.article.created_at_format}</time>
            </p>
          </header>
          <img
            className="news-image news-article-image"
            src={state.article.image}
            width="960"
            height="540"
            alt={`Ảnh minh hoạ: ${state.article.name}`}
            decoding="async"
          />
          <div className="article-body" onClick={followInternalLink} dangerouslySetInnerHTML={{ __html: state.article.body }} />
        </article>
      ) : (
        state.status === 'loading' && <div className="news-article-placeholder" aria-busy="true" />
      )}
    </div>
  );
}
