// The posts, newest first, paged on the server: search by title, filter by state, publish or
// take down, edit, delete (after a confirmation).
import { useState } from 'react';
import { Link } from 'wouter';
import { formatDate, formatTime } from '../../../../shared/format';
import type { AdminNewsItem } from '../../../../shared/schemas/admin-news';
import type { Page } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { Pager } from '../ui/pager';
import { pageQuery, useApiData } from '../../../lib/use-data';

const PER_PAGE = 20;

export function NewsList() {
  usePageTitle('Tin tức');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const { data, message: error, loading, reload } = useApiData<Page<AdminNewsItem>>(`/admin/news?${pageQuery(page, search, { status }, PER_PAGE)}`);
  const [deleting, setDeleting] = useState<AdminNewsItem | null>(null);
  const [busy, setBusy] = useState(false);

  async function setPublished(post: AdminNewsItem, published: boolean) {
    setBusy(true);
    try {
      await api.put(`/admin/news/${post.id}`, { published });
      notify('success', published ? 'Đã đăng bài viết' : 'Đã gỡ bài viết', post.name);
      reload();
    } catch (caught) {
      notify('error', 'Không lưu được', errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  async function remove(post: AdminNewsItem) {
    setBusy(true);
    try {
      await api.delete(`/admin/news/${post.id}`);
      notify('success', 'Đã xoá bài viết', post.name);
      setDeleting(null);
      reload();
    } catch (caught) {
      notify('error', 'Không xoá được', errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-page">
      <h1>Tin tức</h1>
      <div className="admin-toolbar">
        <TextField
          label="Tìm theo tiêu đề"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
        <SelectField
          label="Trạng thái"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value);
            setPage(1);
          }}
        >
          <option value="">Tất cả</option>
          <option value="published">Đã đăng</option>
          <option value="draft">Bản nháp</option>
        </SelectField>
        <Link href="/moi" className="btn btn-accent">
          Viết tin mới
        </Link>
      </div>
      {error && <p role="alert">{error}</p>}
      <div className="admin-table-wrap">
        <table className="admin-table" aria-busy={loading && !data ? 'true' : undefined}>
          <caption className="visually-hidden">Danh sách bài viết</caption>
          <thead>
            <tr>
              <th scope="col">Tiêu đề</th>
              <th scope="col">Trạng thái</th>
              <th scope="col">Ngày tạo</th>
              <th scope="col">Sửa lần cuối</th>
              <th scope="col">Thao tác</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((post) => (
              <tr key={post.id}>
                <td>
                  <Link href={`/${post.id}`}>{post.name}</Link>
                </td>
                <td>
                  <span className={post.published ? 'news-state news-state-published' : 'news-state'}>{post.published ? 'Đã đăng' : 'Bản nháp'}</span>
                </td>
                <td>{formatDate(post.created_at)}</td>
                <td>
                  {formatDate(post.updated_at)} {formatTime(post.updated_at)}
                </td>
                <td>
                  <div className="news-row-actions">
                    <Link href={`/${post.id}`} className="btn btn-outline" aria-label={`Sửa: ${post.name}`}>
                      Sửa
                    </Link>
                    <Button
                      variant="outline"
                      disabled={busy}
                      aria-label={`${post.published ? 'Gỡ' : 'Đăng'}: ${post.name}`}
                      onClick={() => void setPublished(post, !post.published)}
                    >
                      {post.published ? 'Gỡ' : 'Đăng'}
                    </Button>
                    {post.published && (
                      <a href={`/tin-tuc/${post.slug}`} target="_blank" rel="noreferrer" aria-label={`Xem trên trang (tab mới): ${post.name}`}>
                        Xem
                      </a>
                    )}
                    <Button variant="danger" disabled={busy} aria-label={`Xoá: ${post.name}`} onClick={() => setDeleting(post)}>
                      Xoá
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
            {data && data.items.length === 0 && (
              <tr>
                <td colSpan={5}>Không có bài viết nào.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {data && <Pager page={data.page} perPage={data.per_page} total={data.total} onPage={setPage} />}
      {deleting && (
        <Modal
          title="Xoá bài viết?"
          role="alertdialog"
          describe
          onClose={() => setDeleting(null)}
          actions={
            <>
              <Button variant="danger" disabled={busy} onClick={() => void remove(deleting)}>
                Xoá
              </Button>
              <Button variant="outline" onClick={() => setDeleting(null)}>
                Huỷ
              </Button>
            </>
          }
        >
          <p>
            Bài “{deleting.name}” sẽ bị xoá hẳn{deleting.published ? ' và không còn hiện trên trang' : ''}. Nếu chỉ muốn ẩn bài, hãy bấm “Gỡ”.
          </p>
        </Modal>
      )}
    </section>
  );
}
