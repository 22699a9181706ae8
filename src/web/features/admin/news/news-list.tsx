// The posts, newest first, paged on the server: search by title, filter by state, publish or
// take down, edit, delete (after a confirmation).
import { useState } from 'react';
import { Link } from 'wouter';
import { formatDate, formatTime } from '../../../../shared/format';
import type { AdminNewsItem } from '../../../../shared/schemas/admin-news';
import type { Page } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { PagedTable, RowActions } from '../../../components/ui/data-table';
import { useListQuery } from '../kit/use-list-query';
import { pageQuery, useApiData } from '../../../lib/use-data';

const PER_PAGE = 20;

export function NewsList() {
  usePageTitle('Tin tức');
  const { page, setPage, filters, filter } = useListQuery({ q: '', status: '' });
  const list = useApiData<Page<AdminNewsItem>>(`/admin/news?${pageQuery(page, filters.q, { status: filters.status }, PER_PAGE)}`);
  const [deleting, setDeleting] = useState<AdminNewsItem | null>(null);
  const [busy, setBusy] = useState(false);

  async function setPublished(post: AdminNewsItem, published: boolean) {
    setBusy(true);
    try {
      await api.put(`/admin/news/${post.id}`, { published });
      notify('success', published ? 'Đã đăng bài viết' : 'Đã gỡ bài viết', post.name);
      list.reload();
    } catch (caught) {
      notify('error', 'Không lưu được', errorMessage(caught));
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
          value={filters.q}
          onChange={(event) => filter('q')(event.target.value)}
        />
        <SelectField label="Trạng thái" value={filters.status} onChange={(event) => filter('status')(event.target.value)}>
          <option value="">Tất cả</option>
          <option value="published">Đã đăng</option>
          <option value="draft">Bản nháp</option>
        </SelectField>
        <Link href="/moi" className="btn btn-accent">
          Viết tin mới
        </Link>
      </div>
      <PagedTable
        caption="Danh sách bài viết"
        list={list}
        onPage={setPage}
        rowKey={(post) => post.id}
        empty="Không có bài viết nào."
        columns={[
          { header: 'Tiêu đề', cell: (post) => <Link href={`/${post.id}`}>{post.name}</Link> },
          {
            header: 'Trạng thái',
            cell: (post) => <span className={post.published ? 'news-state news-state-published' : 'news-state'}>{post.published ? 'Đã đăng' : 'Bản nháp'}</span>,
          },
          { header: 'Ngày tạo', cell: (post) => formatDate(post.created_at) },
          { header: 'Sửa lần cuối', cell: (post) => `${formatDate(post.updated_at)} ${formatTime(post.updated_at)}` },
          {
            header: 'Thao tác',
            cell: (post) => (
              <RowActions>
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
              </RowActions>
            ),
          },
        ]}
      />
      {deleting && (
        <ConfirmDialog
          title="Xoá bài viết?"
          done={['Đã xoá bài viết', deleting.name]}
          onConfirm={() => api.delete(`/admin/news/${deleting.id}`).then(list.reload)}
          onClose={() => setDeleting(null)}
        >
          <p>
            Bài “{deleting.name}” sẽ bị xoá hẳn{deleting.published ? ' và không còn hiện trên trang' : ''}. Nếu chỉ muốn ẩn bài, hãy bấm “Gỡ”.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
