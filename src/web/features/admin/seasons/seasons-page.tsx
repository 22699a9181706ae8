// /quan-tri/mua-thi: the seasons (issue 26, decision 025). The list says which season is current and
// which are finished (read-only); "Mùa thi mới" sets the new season's name, dates, books and copy
// choices, shows the server's preview of what will change, and opens it on confirmation.
import { useEffect, useState } from 'react';
import type { AdminBook } from '../../../../shared/schemas/admin-books';
import { contestDateFields, contestFieldLabels, fromVietnamLocalInput, type ContestDateField } from '../../../../shared/schemas/admin-contest';
import { copyChoiceLabels, copyChoices, type CopyChoice, type NewSeasonInput, type Season, type SeasonPreview } from '../../../../shared/schemas/admin-seasons';
import { formatDate } from '../../../../shared/format';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextField } from '../../../components/ui/field';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { useApiData } from '../../../lib/use-data';
import { usePageTitle } from '../../../lib/use-page-title';
import { useClassGroups } from '../kit/use-class-groups';
import { ConfirmDialog } from '../kit/confirm-dialog';
import './seasons.css';

interface BookRow {
  name: string;
  author: string;
  class_group_id: number;
  /** A current book whose bank is copied, or 0 for an empty bank. */
  copy_questions_from: number;
}

export function SeasonsPage() {
  usePageTitle('Mùa thi');
  const [version, setVersion] = useState(0);
  const seasons = useApiData<Season[]>('/admin/seasons', version);
  return (
    <section>
      <h1>Mùa thi</h1>
      <p>Mỗi năm là một mùa thi. Chỉ mùa thi hiện tại được sửa; các mùa trước được giữ nguyên để xem lại kết quả, báo cáo và giấy chứng nhận.</p>
      <div className="admin-card">
        <h2>Các mùa thi</h2>
        {seasons.message && <p role="alert">{seasons.message}</p>}
        <ul className="season-list">
          {(seasons.data ?? []).map((season) => (
            <li key={season.id}>
              <strong>{season.name}</strong> — thi từ {formatDate(season.exam_starts_at)} đến {formatDate(season.exam_ends_at)}:{' '}
              {season.is_current ? <span className="season-current">mùa thi hiện tại</span> : <span>đã kết thúc, chỉ xem</span>}
            </li>
          ))}
        </ul>
      </div>
      <NewSeasonForm onOpened={() => setVersion((v) => v + 1)} />
    </section>
  );
}

function NewSeasonForm({ onOpened }: { onOpened: () => void }) {
  const groups = useClassGroups();
  const currentBooks = useApiData<{ items: AdminBook[] }>('/admin/books').data?.items;
  const [name, setName] = useState('');
  const [dates, setDates] = useState<Record<ContestDateField, string>>(
    Object.fromEntries(contestDateFields.map((field) => [field, ''])) as Record<ContestDateField, string>,
  );
  const [copy, setCopy] = useState<Record<CopyChoice, boolean>>({ prize_settings: true, class_teachers: true, school_admins: true, footer: true });
  const [books, setBooks] = useState<BookRow[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<SeasonPreview | null>(null);
  const [confirming, setConfirming] = useState(false);

  // The current books as a start: same names and groups, each copying its own bank.
  useEffect(() => {
    if (books === null && currentBooks) {
      setBooks(currentBooks.map((book) => ({ name: book.name, author: book.author, class_group_id: book.class_group_id, copy_questions_from: book.id })));
    }
  }, [books, currentBooks]);

  const body = (): NewSeasonInput => ({
    name,
    ...(Object.fromEntries(contestDateFields.map((field) => [field, fromVietnamLocalInput(dates[field])])) as Record<ContestDateField, string>),
    copy,
    books: (books ?? []).map((book) => ({ ...book, copy_questions_from: book.copy_questions_from || null })),
  });
  const changed = () => setPreview(null);

  const showPreview = async () => {
    setErrors({});
    try {
      const answer = await api.post<{ data: SeasonPreview }>('/admin/seasons/preview', body());
      setPreview(answer.data);
    } catch (error) {
      if (error instanceof ApiRequestError) setErrors(error.errors);
      notify('error', 'Chưa xem trước được', errorMessage(error));
    }
  };

  const open = async () => {
    const answer = await api.post<{ message: string }>('/admin/seasons', body());
    notify('success', answer.message);
    setPreview(null);
    onOpened();
  };

  const setBook = (index: number, values: Partial<BookRow>) => {
    setBooks((rows) => (rows ?? []).map((row, i) => (i === index ? { ...row, ...values } : row)));
    changed();
  };

  return (
    <form
      className="admin-card"
      aria-labelledby="new-season-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void showPreview();
      }}
    >
      <h2 id="new-season-title">Mùa thi mới</h2>
      <p>
        Mở mùa thi mới thì mùa hiện tại kết thúc và chỉ còn để xem. Tài khoản phụ huynh và các con được giữ: mỗi bé lên một lớp, phụ huynh chọn lại lớp ở lần vào đầu tiên; bé đã học
        hết lớp 5 được ghi là đã hoàn thành. Ngày giờ theo giờ Việt Nam (GMT+7).
      </p>
      <div className="admin-form">
        <div className="field-wide">
          <TextField label="Tên mùa thi mới" value={name} onChange={(e) => (setName(e.target.value), changed())} error={errors.name} />
        </div>
        {contestDateFields.map((field) => (
          <TextField
            key={field}
            label={contestFieldLabels[field]}
            type="datetime-local"
            value={dates[field]}
            onChange={(e) => (setDates((d) => ({ ...d, [field]: e.target.value })), changed())}
            error={errors[field]}
          />
        ))}
      </div>

      <fieldset className="season-copy">
        <legend>Chép từ mùa hiện tại</legend>
        {copyChoices.map((choice) => (
          <div key={choice}>
            <CheckboxField label={copyChoiceLabels[choice].label} checked={copy[choice]} onChange={(e) => (setCopy((c) => ({ ...c, [choice]: e.target.checked })), changed())} />
            <p className="field-hint">{copyChoiceLabels[choice].hint}</p>
          </div>
        ))}
        <p className="field-hint">Danh mục trường, lớp được dùng chung cho mọi mùa thi: sửa trong “Danh mục trường, lớp”.</p>
      </fieldset>

      <fieldset className="season-books">
        <legend>Sách của mùa thi mới</legend>
        {errors.books && <p className="field-error" role="alert">{errors.books}</p>}
        {(books ?? []).map((book, index) => (
          <div className="season-book" key={index}>
            <TextField label={`Sách ${index + 1}: tên`} value={book.name} onChange={(e) => setBook(index, { name: e.target.value })} error={errors[`books.${index}.name`]} />
            <TextField label="Tác giả" value={book.author} onChange={(e) => setBook(index, { author: e.target.value })} />
            <label>
              Nhóm lớp
              <select value={book.class_group_id} onChange={(e) => setBook(index, { class_group_id: Number(e.target.value) })}>
                {groups.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Ngân hàng câu hỏi
              <select value={book.copy_questions_from} onChange={(e) => setBook(index, { copy_questions_from: Number(e.target.value) })}>
                <option value={0}>Để trống (nhập câu hỏi sau)</option>
                {(currentBooks ?? []).map((current) => (
                  <option key={current.id} value={current.id}>
                    Chép từ “{current.name}” ({current.question_count} câu)
                  </option>
                ))}
              </select>
            </label>
            <Button type="button" variant="outline" onClick={() => (setBooks((rows) => (rows ?? []).filter((_, i) => i !== index)), changed())}>
              Bỏ sách này
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="outline"
          onClick={() => (setBooks((rows) => [...(rows ?? []), { name: '', author: '', class_group_id: groups[0]?.id ?? 0, copy_questions_from: 0 }]), changed())}
        >
          Thêm sách
        </Button>
      </fieldset>

      <Button type="submit">Xem trước thay đổi</Button>
      {preview && <PreviewPanel preview={preview} onOpen={() => setConfirming(true)} />}
      {confirming && preview && (
        <ConfirmDialog
          title={`Mở ${preview.name}?`}
          confirmLabel="Mở mùa thi mới"
          confirmVariant="primary"
          done={null}
          failed="Chưa mở được mùa thi mới"
          onConfirm={open}
          onClose={() => setConfirming(false)}
        >
          <p>{preview.current.name} sẽ kết thúc và chỉ còn để xem. Việc này không hoàn tác được.</p>
          <ShortBooksWarning preview={preview} />
        </ConfirmDialog>
      )}
    </form>
  );
}

function PreviewPanel({ preview, onOpen }: { preview: SeasonPreview; onOpen: () => void }) {
  const carried = preview.carried.reduce((sum, row) => sum + row.contestants, 0);
  return (
    <section className="season-preview" aria-labelledby="season-preview-title">
      <h3 id="season-preview-title">Những gì sẽ thay đổi</h3>
      <ul>
        <li>
          {preview.current.name} kết thúc, chỉ còn để xem; {preview.name} trở thành mùa thi hiện tại.
        </li>
        <li>
          {carried} thí sinh lên lớp, phụ huynh chọn lại lớp
          {preview.carried.length > 0 && `: ${preview.carried.map((row) => `${row.class_group_name} ${row.contestants}`).join(', ')}`}.
        </li>
        <li>{preview.finished} thí sinh đã học hết lớp 5: ghi là đã hoàn thành, không dự thi mùa mới.</li>
        <li>Lượt thi, xếp hạng và báo cáo của mùa mới bắt đầu từ đầu.</li>
        <li>
          Giải thưởng: {preview.prize_settings_copied ? `chép ${preview.prize_tiers} hạng giải của mùa này` : `${preview.prize_tiers} hạng giải theo thể lệ gốc`}.
        </li>
        <li>
          Giáo viên chủ nhiệm ({preview.class_teachers}): {preview.class_teachers_kept ? 'giữ nguyên' : 'xoá để nhập lại'}.
        </li>
        <li>
          Quản trị trường ({preview.school_admins} tài khoản): {preview.school_admins_kept ? 'giữ nguyên' : 'khoá'}.
        </li>
        <li>Chân trang: {preview.footer_kept ? 'giữ nguyên' : 'trở về mặc định'}.</li>
      </ul>
      <h4>Sách</h4>
      <ul>
        {preview.books.map((book, index) => (
          <li key={index}>
            {book.name} ({book.class_group_name}): {book.copied_from ? `${book.questions} câu hỏi chép từ “${book.copied_from}”` : 'ngân hàng câu hỏi trống'}
          </li>
        ))}
      </ul>
      <ShortBooksWarning preview={preview} />
      <Button type="button" onClick={onOpen}>
        Mở mùa thi mới
      </Button>
    </section>
  );
}

/** The new season's books whose bank will be short of an exam (issue 42): said in the preview and again in the confirmation. */
function ShortBooksWarning({ preview }: { preview: SeasonPreview }) {
  const short = preview.books.filter((book) => book.questions < preview.questions_per_exam);
  if (short.length === 0) return null;
  return (
    <p className="alert alert-warning">
      {short.length} sách chưa đủ {preview.questions_per_exam} câu hỏi cho một bài thi: {short.map((book) => `${book.name} (${book.questions} câu)`).join(', ')}. Gia đình sẽ
      không thấy các sách này khi chọn sách thi cho đến khi ngân hàng câu hỏi đủ: nhập câu hỏi trong “Sách và câu hỏi” trước ngày mở thi.
    </p>
  );
}
