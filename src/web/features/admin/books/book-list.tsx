// The books of the season, each bank's size against the number an exam draws, and a new book.
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { AdminBook } from '../../../../shared/schemas/admin-books';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { DataTable } from '../ui/data-table';
import { BookForm } from './book-form';
import { formatNumber } from '../../../../shared/format';

export function BookList() {
  usePageTitle('Sách và câu hỏi');
  const [q, setQ] = useState('');
  const [adding, setAdding] = useState(false);
  const [, navigate] = useLocation();
  const books = useApiData<{ items: AdminBook[]; questions_per_exam: number }>(
    `/admin/books${q.trim() ? `?q=${encodeURIComponent(q.trim())}` : ''}`,
  );
  const perExam = books.data?.questions_per_exam ?? 0;
  return (
    <section className="admin-page">
      <h1>Sách và câu hỏi</h1>
      <div className="admin-toolbar">
        <TextField label="Tìm sách" type="search" value={q} onChange={(event) => setQ(event.target.value)} />
        <Button variant="accent" onClick={() => setAdding(!adding)} aria-expanded={adding}>
          Thêm sách
        </Button>
      </div>
      {adding && (
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
                <Link href={`/${book.id}`}>{book.name}</Link>
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
