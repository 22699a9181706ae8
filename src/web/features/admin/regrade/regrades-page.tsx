// /quan-tri/cham-lai: every regrade of the current contest, newest first: the rule, why, who,
// and what it changed. A regrade starts from a question of a book (Sách và câu hỏi > Chấm lại).
import { useState } from 'react';
import { Link } from 'wouter';
import { regradeMessages } from '../../../../shared/messages';
import type { Page } from '../../../../shared/schemas/admin';
import type { RegradeEntry } from '../../../../shared/schemas/admin-regrade';
import { formatDateTime, formatNumber } from '../../../../shared/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { PagedTable } from '../../../components/ui/data-table';
import { pageQuery, useApiData } from '../../../lib/use-data';
import './regrade.css';
import { actorLabel } from '../kit/actor-label';

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
      {list.data && list.data.total === 0 ? (
        <p>Chưa có câu hỏi nào được chấm lại.</p>
      ) : (
        <PagedTable
          caption="Lịch sử chấm lại câu hỏi"
          list={list}
          onPage={setPage}
          rowKey={(entry) => entry.id}
          columns={[
            { header: 'Thời điểm', cell: (entry) => formatDateTime(entry.created_at) },
            {
              header: 'Sách và câu hỏi',
              className: 'regrade-history-question',
              cell: (entry) => (
                <>
                  <Link href={`~/quan-tri/sach/${entry.book_id}`}>{entry.book_name}</Link>: {entry.question_value}
                </>
              ),
            },
            {
              header: 'Cách chấm',
              cell: (entry) => (
                <>
                  {regradeMessages.modeLabels[entry.mode]}
                  {entry.accepted_answers.length > 0 && `: ${entry.accepted_answers.join(' / ')}`}
                  <br />
                  <em>{entry.active ? 'Đang áp dụng' : 'Đã được thay bằng lần chấm lại sau'}</em>
                </>
              ),
            },
            { header: 'Lý do', cell: (entry) => entry.reason },
            {
              header: 'Bài tăng / giảm điểm',
              numeric: true,
              cell: (entry) => (
                <>
                  +{formatNumber(entry.exams_gained)} / −{formatNumber(entry.exams_lost)}
                  {entry.exams_in_progress > 0 && ` (${formatNumber(entry.exams_in_progress)} bài đang làm)`}
                </>
              ),
            },
            { header: 'Người thực hiện', cell: (entry) => actorLabel(entry) },
          ]}
        />
      )}
    </section>
  );
}
