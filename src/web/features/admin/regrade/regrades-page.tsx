// /quan-tri/cham-lai: every regrade of the current contest, newest first: the rule, why, who,
// and what it changed. A regrade starts from a question of a book (Sách và câu hỏi > Chấm lại).
import { useState } from 'react';
import { Link } from 'wouter';
import { regradeMessages } from '../../../../shared/messages';
import type { Page } from '../../../../shared/schemas/admin';
import type { RegradeEntry } from '../../../../shared/schemas/admin-regrade';
import { formatDateTime, formatNumber } from '../../../../shared/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { Pager } from '../ui/pager';
import { pageQuery, useApiData } from '../../../lib/use-data';
import './regrade.css';

const PER_PAGE = 50;

export function RegradesPage() {
  usePageTitle('Chấm lại câu hỏi');
  const [page, setPage] = useState(1);
  const list = useApiData<Page<RegradeEntry>>(`/admin/regrades?${pageQuery(page, '', {}, PER_PAGE)}`);
  return (
    <section className="admin-page">
      <h1>Chấm lại câu hỏi</h1>
      <p>
        Khi đáp án của một câu hỏi sai hoặc câu hỏi có hai cách hiểu: mở sách trong mục{' '}
        <Link href="~/quan-tri/sach">Sách và câu hỏi</Link>, chọn <strong>Chấm lại</strong> ở câu hỏi, chạy thử rồi xác nhận. Các lần chấm lại
        của cuộc thi hiện tại:
      </p>
      {list.message && <p role="alert">{list.message}</p>}
      {list.data && list.data.total === 0 && <p>Chưa có câu hỏi nào được chấm lại.</p>}
      {list.data && list.data.total > 0 && (
        <>
          <div className="admin-table-wrap" aria-busy={list.loading ? 'true' : undefined}>
            <table className="admin-table">
              <caption className="visually-hidden">Lịch sử chấm lại câu hỏi</caption>
              <thead>
                <tr>
                  <th scope="col">Thời điểm</th>
                  <th scope="col">Sách và câu hỏi</th>
                  <th scope="col">Cách chấm</th>
                  <th scope="col">Lý do</th>
                  <th scope="col" className="num">Bài tăng / giảm điểm</th>
                  <th scope="col">Người thực hiện</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((entry) => (
                  <tr key={entry.id}>
                    <td>{formatDateTime(entry.created_at)}</td>
                    <td className="regrade-history-question">
                      <Link href={`~/quan-tri/sach/${entry.book_id}`}>{entry.book_name}</Link>: {entry.question_value}
                    </td>
                    <td>
                      {regradeMessages.modeLabels[entry.mode]}
                      {entry.accepted_answers.length > 0 && `: ${entry.accepted_answers.join(' / ')}`}
                      <br />
                      <em>{entry.active ? 'Đang áp dụng' : 'Đã được thay bằng lần chấm lại sau'}</em>
                    </td>
                    <td>{entry.reason}</td>
                    <td className="num">
                      +{formatNumber(entry.exams_gained)} / −{formatNumber(entry.exams_lost)}
                      {entry.exams_in_progress > 0 && ` (${formatNumber(entry.exams_in_progress)} bài đang làm)`}
                    </td>
                    <td>{entry.actor_phone}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
