// One book: its details, cover, question bank (paged on the server, the correct answer marked),
// the question editor and the import (template, CSV, Aiken, GIFT; append or replace). A book of an
// earlier season (issue 26) is shown read-only: no editor, import, cover upload or regrade.
import { useId, useState } from 'react';
import { Link, useSearch } from 'wouter';
import type { AdminBook, AdminQuestion, BookSeason } from '../../../../shared/schemas/admin-books';
import { seasonMessages } from '../../../../shared/messages/seasons';
import type { Page } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { api } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { ImportPanel } from '../kit/import-panel';
import { ParsedQuestions, QuestionFileNotes, questionFileKind, questionFileUnit } from './question-file-notes';
import { ConfirmDialog } from '../kit/confirm-dialog';
import { PagedTable, RowActions } from '../../../components/ui/data-table';
import { FileInput } from '../kit/file-input';
import { uploadFile } from '../kit/upload';
import { pageQuery, useApiData, type DataState } from '../../../lib/use-data';
import { BookForm } from './book-form';
import { BankSize } from './book-list';
import { QuestionEditor } from './question-editor';
import { RegradeDialog } from '../regrade';
import { examDaysMessages } from '../../../../shared/messages';
import { formatNumber } from '../../../../shared/format';

type BookDetails = AdminBook & { questions_per_exam: number; questions_frozen: boolean; season: BookSeason };
const PER_PAGE = 20;

export function BookPage({ bookId }: { bookId: number }) {
  const book = useApiData<BookDetails>(`/admin/books/${bookId}`);
  const search = useSearch();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const questions = useApiData<Page<AdminQuestion>>(`/admin/books/${bookId}/questions?${pageQuery(page, q, {}, PER_PAGE)}`);
  const [editing, setEditing] = useState<AdminQuestion | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminQuestion | null>(null);
  // A question of a book with exams can be regraded (a wrong key): its number in the list too.
  const [regrading, setRegrading] = useState<{ question: AdminQuestion; number: number } | null>(null);
  const [mode, setMode] = useState<'append' | 'replace'>('append');
  const modeName = useId();
  usePageTitle(book.data?.name ?? 'Sách');

  const changed = () => {
    book.reload();
    questions.reload();
  };

  if (book.message) {
    return (
      <section className="admin-page">
        <h1>Sách</h1>
        <p role="alert">{book.message}</p>
        <Link href="/">Về danh sách sách</Link>
      </section>
    );
  }
  const data = book.data;
  // Editing controls once the book is known to be of the current season.
  const editable = data?.season.is_current ?? false;
  // The season the list was showing (?mua-thi= carried from it), so that "back" keeps it even when
  // tapped before the book has loaded (a slow phone); otherwise the book's own earlier season.
  const listSeason = new URLSearchParams(search).get('mua-thi') ?? (data && !editable ? String(data.season.id) : '');
  return (
    <section className="admin-page" aria-busy={!data ? 'true' : undefined}>
      <p>
        <Link href={listSeason ? `/?mua-thi=${listSeason}` : '/'}>← Danh sách sách</Link>
      </p>
      <h1>{data?.name ?? 'Sách'}</h1>
      {data && (
        <>
          <p>
            Ngân hàng câu hỏi: <BankSize count={data.question_count} perExam={data.questions_per_exam} /> (số câu có / số câu mỗi bài thi rút ra).
            {data.exam_count > 0 && ` Đã có ${formatNumber(data.exam_count)} bài thi của sách này.`}
            {` Câu hỏi thi thử (không bao giờ có trong bài thi thật): ${formatNumber(data.practice_count)}.`}
          </p>
          {/* Over the exams of the book's own season (an earlier season's book: read-only, no regrade). */}
          <p>
            <Link href={`/${bookId}/chat-luong${search ? `?${search}` : ''}`}>Chất lượng câu hỏi (độ dễ, độ phân biệt, câu nghi sai đáp án)</Link>
          </p>
          {!editable && (
            <p className="alert alert-warning" role="status">
              {seasonMessages.viewOnly(data.season.name)}
            </p>
          )}
          {data.questions_frozen && (
            <p className="alert alert-warning" role="status" data-testid="questions-frozen">
              {examDaysMessages.questionsFrozen}
            </p>
          )}
          <section className="admin-card" aria-labelledby="book-details-title">
            <h2 id="book-details-title">Thông tin sách</h2>
            {!editable ? (
              <BookFacts book={data} />
            ) : (
              <div className="book-cover-row">
                <CoverUpload book={data} onChanged={book.reload} />
                <div className="book-details-form">
                  <BookForm
                    key={`${data.name}|${data.author}|${data.class_group_id}`}
                    initial={data}
                    submitLabel="Lưu thông tin sách"
                    onSubmit={async (values) => {
                      await api.put(`/admin/books/${bookId}`, values);
                      notify('success', 'Đã lưu thông tin sách');
                      book.reload();
                    }}
                  />
                </div>
              </div>
            )}
          </section>
        </>
      )}

      <section className="admin-card" aria-labelledby="questions-title">
        <h2 id="questions-title">Câu hỏi</h2>
        <div className="admin-toolbar">
          <TextField
            label="Tìm câu hỏi hoặc đáp án"
            type="search"
            value={q}
            onChange={(event) => {
              setQ(event.target.value);
              setPage(1);
            }}
          />
          {editable && (
            <Button variant="accent" onClick={() => setEditing('new')}>
              Thêm câu hỏi
            </Button>
          )}
        </div>
        {questions.data?.total === 0 ? (
          <p>Chưa có câu hỏi nào.</p>
        ) : (
          <QuestionTable
            list={questions}
            onPage={setPage}
            firstNumber={(page - 1) * PER_PAGE + 1}
            onEdit={setEditing}
            onDelete={setDeleting}
            onRegrade={editable && data && data.exam_count > 0 ? (question, number) => setRegrading({ question, number }) : undefined}
            frozen={data?.questions_frozen ?? false}
            readOnly={!editable}
          />
        )}
      </section>

      {editable && (
        <div className="import-block">
          <fieldset className="import-mode">
            <legend>Cách nhập</legend>
            <label>
              <input type="radio" name={modeName} value="append" checked={mode === 'append'} onChange={() => setMode('append')} />
              Thêm vào ngân hàng (bỏ qua câu đã có)
            </label>
            <label>
              <input type="radio" name={modeName} value="replace" checked={mode === 'replace'} onChange={() => setMode('replace')} />
              Thay cả ngân hàng bằng tệp (chỉ khi sách chưa có bài thi)
            </label>
          </fieldset>
          <ImportPanel
            key={mode}
            title="Nhập câu hỏi từ tệp"
            path={`/admin/books/${bookId}/questions/import`}
            template="questions"
            accept=".xlsx,.csv,.txt"
            fields={{ mode }}
            hint="Tệp .xlsx hoặc .csv (UTF-8) theo mẫu (câu có 2 đến 4 đáp án: cột Đáp án C, D có thể để trống); hoặc tệp .txt định dạng Aiken hay GIFT của Moodle (câu trắc nghiệm 2-4 đáp án)."
            onImported={changed}
            unit={questionFileUnit}
            saveLabel={(preview) => `Lưu ${formatNumber(preview.questions_total as number)} câu hỏi từ ${questionFileKind(preview)}`}
            renderPreview={(preview) => (
              <>
                <ParsedQuestions data={preview} />
                {typeof preview.deleted === 'number' && preview.deleted > 0 && (
                  <p>
                    <strong>Thay cả ngân hàng: sẽ xoá {String(preview.deleted)} câu hỏi hiện có không nằm trong tệp.</strong>
                  </p>
                )}
                <QuestionFileNotes data={preview} />
              </>
            )}
            renderResult={(result) => (typeof result.deleted === 'number' && result.deleted > 0 ? <p>Đã xoá {String(result.deleted)} câu không có trong tệp.</p> : null)}
          />
        </div>
      )}

      {editing && (
        <QuestionEditor
          bookId={bookId}
          question={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed();
          }}
        />
      )}
      {regrading && (
        <RegradeDialog
          question={regrading.question}
          number={regrading.number}
          onClose={() => setRegrading(null)}
          onDone={() => {
            setRegrading(null);
            changed();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Xoá câu hỏi?"
          cancelLabel="Không xoá"
          done={['Đã xoá câu hỏi']}
          failed="Không xoá được câu hỏi"
          onConfirm={() => api.delete(`/admin/questions/${deleting.id}`).then(changed)}
          onClose={() => setDeleting(null)}
        >
          <p>{deleting.value}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function QuestionTable({
  list,
  onPage,
  firstNumber,
  onEdit,
  onDelete,
  onRegrade,
  frozen,
  readOnly,
}: {
  list: DataState<Page<AdminQuestion>>;
  /** A book of an earlier season: no action column. */
  readOnly: boolean;
  onPage: (page: number) => void;
  /** The exam window is open and exams use the book: no edit, no delete (adding stays possible). */
  frozen: boolean;
  firstNumber: number;
  onEdit: (question: AdminQuestion) => void;
  onDelete: (question: AdminQuestion) => void;
  onRegrade?: (question: AdminQuestion, number: number) => void;
}) {
  return (
    <PagedTable
      caption="Câu hỏi của sách, đáp án đúng in đậm"
      className="question-table"
      list={list}
      onPage={onPage}
      rowKey={(question) => question.id}
      columns={[
        { header: '#', cell: (_question, index) => firstNumber + index },
        {
          header: 'Câu hỏi và đáp án',
          cell: (question) => (
            <>
              {question.is_practice && <span className="question-practice-tag">Thi thử</span>}
              <span className="keep-lines">{question.value}</span>
              {question.audio && ' 🔊'}
              <ol className="question-answers" type="A">
                {question.answers.map((answer) => (
                  <li key={answer.id} className={answer.is_correct ? 'correct' : undefined}>
                    {answer.value}
                    {answer.is_correct && ' ✓ (đáp án đúng)'}
                  </li>
                ))}
              </ol>
            </>
          ),
        },
        !readOnly && {
          header: 'Thao tác',
          cell: (question, index) => (
            <RowActions>
              <Button variant="outline" disabled={frozen} onClick={() => onEdit(question)} aria-label={`Sửa câu ${firstNumber + index}`}>
                Sửa
              </Button>
              <Button variant="outline" disabled={frozen} onClick={() => onDelete(question)} aria-label={`Xoá câu ${firstNumber + index}`}>
                Xoá
              </Button>
              {onRegrade && (
                <Button variant="outline" onClick={() => onRegrade(question, firstNumber + index)} aria-label={`Chấm lại câu ${firstNumber + index}`}>
                  Chấm lại
                </Button>
              )}
            </RowActions>
          ),
        },
      ]}
    />
  );
}

/** An earlier season's book: its cover and details, as text. */
function BookFacts({ book }: { book: AdminBook }) {
  return (
    <div className="book-cover-row">
      <div className="book-cover">{book.image ? <img src={book.image} alt={`Bìa sách ${book.name}`} width="150" height="200" /> : <p>Chưa có ảnh bìa.</p>}</div>
      <dl className="book-facts">
        <dt>Tên sách</dt>
        <dd>{book.name}</dd>
        <dt>Tác giả</dt>
        <dd>{book.author || '—'}</dd>
        <dt>Nhóm lớp</dt>
        <dd>{book.class_group_name}</dd>
      </dl>
    </div>
  );
}

function CoverUpload({ book, onChanged }: { book: AdminBook; onChanged: () => void }) {
  return (
    <div className="book-cover">
      {book.image ? <img src={book.image} alt={`Bìa sách ${book.name}`} width="150" height="200" /> : <p>Chưa có ảnh bìa.</p>}
      <div className="field">
        <FileInput
          label="Đổi ảnh bìa (JPEG, PNG, WebP; tối đa 5 MB)"
          accept="image/jpeg,image/png,image/webp"
          failed="Không đổi được ảnh bìa"
          send={async (file) => {
            await uploadFile(`/admin/books/${book.id}/cover`, file);
            notify('success', 'Đã đổi ảnh bìa');
            onChanged();
          }}
        />
      </div>
    </div>
  );
}

