// /quan-tri/tin-tuc: the list of posts (published and drafts), a new post (/moi) and a post's
// edit form (/{id}). Paths here are relative to /quan-tri/tin-tuc.
import { Route, Switch, useLocation, useParams, useRouter } from 'wouter';
import type { AdminNewsPost } from '../../../../shared/schemas/admin-news';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { NewsForm } from './news-form';
import { NewsList } from './news-list';
import './news-admin.css';

export function NewsAdminPage() {
  return (
    <Switch>
      <Route path="/" component={NewsList} />
      <Route path="/moi" component={NewPost} />
      <Route path="/:id" component={EditPost} />
    </Switch>
  );
}

/** Back to the list at /quan-tri/tin-tuc (a nested navigate('/') would leave a trailing slash). */
function useBackToList() {
  const [, navigate] = useLocation();
  const { base } = useRouter();
  return () => navigate(`~${base}`);
}

function NewPost() {
  usePageTitle('Viết tin mới');
  const back = useBackToList();
  return (
    <section className="admin-page">
      <h1>Viết tin mới</h1>
      <div className="admin-card">
        <NewsForm onSaved={back} onCancel={back} />
      </div>
    </section>
  );
}

function EditPost() {
  usePageTitle('Sửa tin');
  const { id } = useParams<{ id: string }>();
  const back = useBackToList();
  const valid = /^\d{1,9}$/.test(id ?? '');
  const { data: post, message: error } = useApiData<AdminNewsPost>(valid ? `/admin/news/${id}` : null);
  return (
    <section className="admin-page">
      <h1>Sửa tin</h1>
      {!valid || error ? (
        <p role="alert">{valid ? error : 'Không tìm thấy bài viết.'}</p>
      ) : !post ? (
        <p aria-busy="true">Đang tải…</p>
      ) : (
        <div className="admin-card">
          <NewsForm key={post.id} post={post} onSaved={back} onCancel={back} />
        </div>
      )}
    </section>
  );
}
