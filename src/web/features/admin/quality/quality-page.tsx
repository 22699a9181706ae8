// /quan-tri/sach/:bookId/chat-luong: the question quality of a book (item analysis over the
// finished exams, decision 021): flagged questions first, sortable, each flag with its reason; a
// likely wrong key opens the regrade dry run with the suspected answer chosen; the .xlsx export.
// The figures are the book's stored counts (computed at the first view, after a regrade, or when
// the organiser asks: "Tính lại"), with when they were computed and how many exams came since.
// A question drawn by fewer exams than the figures need has none (the server sends null): the page
// says once, at the top, how many exams that is and how many there are, and its cells read "—".
import { useMemo, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { formatDateTime, formatNumber } from '../../../../shared/format';
import { seasonMessages } from '../../../../shared/messages/seasons';
import { qualityFlagLabels, type BookQuality, type QualityQuestion } from '../../../../shared/schemas/admin-quality';
import { Button } from '../../../components/ui/button';
import { downloadFile } from '../../../lib/download';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/server-errors';
import { useApiData } from '../../../lib/use-data';
import { usePageTitle } from '../../../lib/use-page-title';
import { DataTable, type Sort } from '../../../components/ui/data-table';
import { RegradeDialog } from '../regrade';
import './quality.css';

const letter = (index: number) => String.fromCharCode(65 + index);
const percent = (value: number) => `${formatNumber(value * 100)}%`;
const decimal = (value: number) => formatNumber(value, 2);

/** A figure of a row, or "—" with what a screen reader says instead (too few exams, or a figure that does not exist). */
function figure<T>(row: QualityQuestion, min: number, value: T | null, shown: (value: T) => string) {
  if (value !== null) return shown(value);
  return (
    <>
      —<span className="visually-hidden">{row.exams < min ? ` chưa đủ bài thi để tính (${row.exams}/${min} bài)` : ' không tính được'}</span>
    </>
  );
}

/** The sortable figures; without a sort the server's order (flagged first) holds. */
const sortValues: Record<string, (row: QualityQuestion) => number | null> = {
  number: (row) => row.number,
  exams: (row) => row.exams,
  facility: (row) => row.facility,
  discrimination: (row) => row.discrimination,
  difference: (row) => row.upper_lower_difference,
};

function sorted(rows: QualityQuestion[], sort: Sort | undefined) {
  if (!sort) return rows;
  const value = sortValues[sort.key]!;
  const sign = sort.direction === 'asc' ? 1 : -1;
  // Rows without a figure (no exam) go last either way.
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
    return (va - vb) * sign;
  });
}

const downloadXlsx = (bookId: number) => downloadFile(`/admin/books/${bookId}/quality.xlsx`, `chat-luong-cau-hoi-sach-${bookId}.xlsx`);

export function QualityPage({ bookId }: { bookId: number }) {
  const report = useApiData<BookQuality>(`/admin/books/${bookId}/quality`);
  // The list's season (?mua-thi=), carried back to the book.
  const search = useSearch();
  const [sort, setSort] = useState<Sort | undefined>();
  const [regrading, setRegrading] = useState<QualityQuestion | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const data = report.data;
  const refresh = async () => {
    setRefreshing(true);
    setRefreshError(null);
    try {
      await api.post(`/admin/books/${bookId}/quality/refresh`);
      report.reload();
    } catch (caught) {
      setRefreshError(errorMessage(caught) ?? 'Chưa tính lại được, vui lòng thử lại.');
    } finally {
      setRefreshing(false);
    }
  };
  usePageTitle(data ? `Chất lượng câu hỏi: ${data.book.name}` : 'Chất lượng câu hỏi');
  const rows = useMemo(() => (data ? sorted(data.questions, sort) : undefined), [data, sort]);
  const flagged = data?.questions.filter((row) => row.flags.length > 0).length ?? 0;
  const judged = data?.questions.filter((row) => row.exams >= data.min_exams).length ?? 0;

  return (
    <section className="admin-page" aria-busy={!data && !report.message ? 'true' : undefined}>
      <p>
        <Link href={`/${bookId}${search ? `?${search}` : ''}`}>← Về sách</Link>
      </p>
      <h1>Chất lượng câu hỏi{data ? `: ${data.book.name}` : ''}</h1>
      {report.message && <p role="alert">{report.message}</p>}
      {data && (
        <>
          {!data.book.season.is_current && (
            <p className="alert alert-warning" role="status">
              {seasonMessages.viewOnly(data.book.season.name)}
            </p>
          )}
          <div className="admin-toolbar">
            <p data-testid="quality-computed">
              Số liệu tính lúc {formatDateTime(data.computed_at)} trên {formatNumber(data.exams)} bài thi đã nộp.
              {data.exams_now !== data.exams && <> Đến nay có {formatNumber(data.exams_now)} bài thi đã nộp: bấm Tính lại để cập nhật.</>}
            </p>
            <Button variant="outline" onClick={() => void refresh()} disabled={refreshing}>
              {refreshing ? 'Đang tính lại…' : 'Tính lại'}
            </Button>
          </div>
          {refreshError && <p role="alert">{refreshError}</p>}
          <p>
            Tính trên các bài thi đã nộp của sách này (không tính thi thử), mỗi câu trên các bài đã rút câu đó. Nhóm điểm cao và nhóm
            điểm thấp: 27% số bài có điểm cao nhất và thấp nhất khi không tính câu đang xét. Độ phân biệt: hệ số tương quan điểm-nhị phân giữa câu và phần
            điểm còn lại.
          </p>
          {judged < data.questions.length && <TooFewNote data={data} judged={judged} />}
          <div className="admin-toolbar">
            <p data-testid="quality-summary">
              {judged === 0 ? (
                'Chưa câu nào đủ bài thi để đánh giá.'
              ) : (
                <>
                  <strong>{formatNumber(flagged)}</strong> / {formatNumber(judged)} câu {judged < data.questions.length ? 'đủ bài thi ' : ''}có cảnh báo.
                </>
              )}
            </p>
            <Button variant="outline" onClick={() => void downloadXlsx(bookId)}>
              Xuất bảng này (.xlsx)
            </Button>
          </div>
          <DataTable
            caption="Chất lượng từng câu hỏi, câu có cảnh báo trước"
            columns={[
              { header: 'Câu', cell: (row) => row.number, numeric: true, sortKey: 'number' },
              { header: 'Câu hỏi', cell: (row) => row.question.value, rowHeader: true, className: 'quality-question' },
              { header: 'Số bài', cell: (row) => formatNumber(row.exams), numeric: true, sortKey: 'exams' },
              { header: 'Độ dễ', cell: (row) => figure(row, data.min_exams, row.facility, percent), numeric: true, sortKey: 'facility' },
              { header: 'Độ phân biệt', cell: (row) => figure(row, data.min_exams, row.discrimination, decimal), numeric: true, sortKey: 'discrimination' },
              { header: 'Cao − thấp', cell: (row) => figure(row, data.min_exams, row.upper_lower_difference, percent), numeric: true, sortKey: 'difference' },
              { header: 'Tỉ lệ chọn (cả bài / nhóm cao / nhóm thấp)', cell: (row) => (row.answers ? <Shares row={row} answers={row.answers} /> : figure(row, data.min_exams, null, String)) },
              {
                header: 'Cảnh báo',
                cell: (row) => (
                  <>
                    {row.flags.length > 0 && (
                      <ul className="quality-flags">
                        {row.flags.map((flag) => (
                          <li key={flag.kind} data-flag={flag.kind}>
                            <strong>{qualityFlagLabels[flag.kind]}.</strong> {flag.reason}
                          </li>
                        ))}
                      </ul>
                    )}
                    {row.suspected_answer_id !== null && data.book.season.is_current && (
                      <Button variant="outline" onClick={() => setRegrading(row)}>
                        Chấm lại thử với đáp án {letter(row.question.answers.findIndex((answer) => answer.id === row.suspected_answer_id))}
                      </Button>
                    )}
                  </>
                ),
              },
            ]}
            rows={rows}
            rowKey={(row) => row.question.id}
            empty="Sách chưa có câu hỏi nào."
            sort={sort}
            onSort={setSort}
          />
        </>
      )}
      {regrading && (
        <RegradeDialog
          question={regrading.question}
          number={regrading.number}
          suggestedAnswerId={regrading.suspected_answer_id ?? undefined}
          onClose={() => setRegrading(null)}
          onDone={() => {
            setRegrading(null);
            report.reload();
          }}
        />
      )}
    </section>
  );
}

/** Said once, above the table: how many exams the figures need, how many the questions have. */
function TooFewNote({ data, judged }: { data: BookQuality; judged: number }) {
  const most = Math.max(0, ...data.questions.filter((row) => row.exams < data.min_exams).map((row) => row.exams));
  return (
    <p className="alert quality-too-few" role="note" data-testid="quality-too-few">
      Tỉ lệ, độ phân biệt và cảnh báo của một câu chỉ được tính khi có ít nhất {formatNumber(data.min_exams)} bài thi rút câu đó (mỗi bài thi rút một phần
      ngân hàng câu hỏi). Sách mới có {formatNumber(data.exams)} bài thi đã nộp: {formatNumber(data.questions.length - judged)} / {formatNumber(data.questions.length)} câu
      chưa đủ (nhiều nhất {formatNumber(most)} bài một câu), các ô số liệu của những câu này để trống (—).
    </p>
  );
}

function Shares({ row, answers }: { row: QualityQuestion; answers: NonNullable<QualityQuestion['answers']> }) {
  return (
    <ul className="quality-shares">
      {row.question.answers.map((answer, index) => {
        const share = answers[index]!;
        return (
          <li key={answer.id}>
            {letter(index)}
            {answer.is_correct ? ' (đúng)' : ''}: {percent(share.overall)} / {percent(share.upper)} / {percent(share.lower)}
          </li>
        );
      })}
      {row.blank && row.blank.overall > 0 && (
        <li>
          Bỏ trống: {percent(row.blank.overall)} / {percent(row.blank.upper)} / {percent(row.blank.lower)}
        </li>
      )}
    </ul>
  );
}
