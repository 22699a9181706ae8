// The books of the season, each bank's size against the number an exam draws, and a new book.
// An earlier season's books (issue 26), chosen in the season selector (?mua-thi=<id>): read-only.
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import type { AdminBook, BookSeason } from '../../../../shared/schemas/admin-books';
import type { Season } from '../../../../shared/schemas/admin-seasons';
import { seasonMessages } from '../../../../shared/messages/seasons';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { DataTable } from '../../../components/ui/data-table';
import { BookForm } from './book-form';
import { formatNumber } from '../../../../shared/format';

export function BookList() {
  usePageTitle('Sách và câu hỏi');
  const [q, setQ] = useState('');
  const [adding, setAdding] = useState(false);
  const [, navigate] = useLocation();
  const [search, setSearch] = useSearchParams();
  const chosen = search.get('mua-thi') ?? '';
  const seasons = useApiData<Season[]>('/admin/seasons').data ?? [];
  const query = new URLSearchParams(Object.entries({ q: q.trim(), season: chosen }).filter(([, value]) => value)).toString();
  const books = useApiData<{ items: AdminBook[]; questions_per_exam: number; season: BookSeason | null }>(`/admin/books${query ? `?${query}` : ''}`);
  const perExam = books.data?.questions_per_exam ?? 0;
  const season = books.data?.season;
  const readOnly = season ? !season.is_current : false;
  return (
    <section className="admin-page">
      <h1>Sách và câu hỏi</h1>
      <div className="admin-toolbar">
        {seasons.length > 1 && (
          <SelectField label="Mùa thi" value={chosen} onChange={(event) => setSearch(event.target.value ? { 'mua-thi': event.target.value } : {})}>
            {seasons.map((item) => (
              <option key={item.id} value={item.is_current ? '' : item.id}>
                {item.is_current ? item.name : `${item.name} (đã kết thúc)`}
              </option>
            ))}
          </SelectField>
        )}
        <TextField label="Tìm sách" type="search" value={q} onChange={(event) => setQ(event.target.value)} />
        {!readOnly && (
          <Button variant="accent" onClick={() => setAdding(!adding)} aria-expanded={adding}>
            Thêm sách
          </Button>
        )}
      </div>
      {season && readOnly && (
        <p className="alert alert-warning" role="status">
          {seasonMessages.viewOnly(season.name)}
        </p>
      )}
      {adding && !readOnly && (
        <section className="admin-card" aria-labelledby="new-book-title">
          <h2 id="new-book-title">Sách mới</h2>
          <BookForm
            submitLabel="Thêm sách"
            onSubmit={async (values) => {
              const answer = await api.post<{ data: AdminBook }>('/admin/books', values);
              notify('success', 'Đã thêm sách', answer.data.name);
              navigate(`/${answer.data.id}`);
            }}
          />
        </section>
      )}
      <p>Mỗi bài thi rút ngẫu nhiên {perExam} câu hỏi từ ngân hàng của sách.</p>
      <DataTable
        caption="Danh sách sách"
        rows={books.data?.items}
        loading={books.loading && !books.data}
        error={books.message}
        rowKey={(book) => book.id}
        columns={[
          { header: 'Bìa', cell: (book) => (book.image ? <img className="book-thumb" src={book.image} alt="" width="45" height="60" /> : '—') },
          {
            header: 'Sách',
            cell: (book) => (
              <>
                <Link href={chosen ? `/${book.id}?mua-thi=${chosen}` : `/${book.id}`}>{book.name}</Link>
                {book.author && <div className="book-author">{book.author}</div>}
              </>
            ),
          },
          { header: 'Nhóm lớp', cell: (book) => book.class_group_name },
          { header: 'Số câu hỏi', numeric: true, cell: (book) => <BankSize count={book.question_count} perExam={perExam} /> },
          { header: 'Bài thi', numeric: true, cell: (book) => formatNumber(book.exam_count) },
        ]}
      />
    </section>
  );
}

/** "25 / 20 câu"; flagged when the bank is smaller than an exam draws. */
export function BankSize({ count, perExam }: { count: number; perExam: number }) {
  const short = count < perExam;
  return (
    <span className={short ? 'bank-short' : undefined}>
      {formatNumber(count)} / {perExam}
      {short && <> (thiếu {perExam - count} câu)</>}
    </span>
  );
}
