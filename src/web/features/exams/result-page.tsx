// Result review (/ket-qua-thi/:slugExam, spec section 2): book, points, completion time,
// prediction, and each question with the contestant's answer and the correct one (marked with
// words and an icon as well as colour).
import { examMessages } from '../../../shared/messages';
import type { ExamResultResponse } from '../../../shared/schemas/exams';
import { useData } from '../../lib/use-data';
import { formatDateTime, formatNumber } from '../../../shared/format';
import { Link, useParams } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import { useRequireAuth } from '../../lib/use-require-auth';
import { fetchExamResult } from './exam-api';
import './exams.css';
import { ResultAtAddress, wellFormedSlug } from './load-error';
import { ReviewQuestions } from './review-question';

export function ResultPage() {
  usePageTitle('Kết quả thi');
  const slug = wellFormedSlug(useParams<{ slugExam?: string }>().slugExam);
  const session = useRequireAuth();
  // Result load failure shows the server message (spec section 8).
  const result = useData(session && slug ? slug : null, () => fetchExamResult(slug ?? ''), {
    failed: 'Không tải được kết quả thi. Vui lòng kiểm tra kết nối mạng.',
    warn: 'Không tải được kết quả thi',
  });

  if (!session) return <div className="container page" />;
  return (
    <div className="container page">
      <h1>Kết quả thi</h1>
      <ResultAtAddress slug={slug} notFound={examMessages.examNotFound} load={result} loadingText="Đang tải kết quả…">
        {(data) => <ResultView result={data} />}
      </ResultAtAddress>
    </div>
  );
}

function ResultView({ result }: { result: ExamResultResponse }) {
  const { data, children } = result;
  return (
    <>
      <p>
        Thí sinh <strong>{children.fullname}</strong> – lần thi thứ {data.attempt}
      </p>
      <dl className="result-summary">
        <div>
          <dt>Sách thi</dt>
          <dd>{data.book.name}</dd>
        </div>
        <div>
          <dt>Điểm</dt>
          <dd>{data.points}/100</dd>
        </div>
        <div>
          <dt>Thời gian làm bài</dt>
          <dd>
            {data.time_complete_minutes} phút {String(data.time_complete_seconds).padStart(2, '0')} giây
          </dd>
        </div>
        <div>
          <dt>Dự đoán số bài thi</dt>
          <dd>{data.prediction === null ? 'Chưa trả lời' : formatNumber(data.prediction)}</dd>
        </div>
      </dl>

      {data.correct_answers_at ? (
        <>
          <h2>Câu trả lời của em</h2>
          <p className="result-keys-later" role="note">
            {examMessages.correctAnswersLater(formatDateTime(data.correct_answers_at))}
          </p>
        </>
      ) : (
        <h2>Đáp án từng câu</h2>
      )}
      <ReviewQuestions questions={data.data_questions} results={data.data_result} verdict={(right, answered) => (right ? (answered ? 'Trả lời đúng' : 'Được tính điểm') : answered ? 'Trả lời sai' : 'Chưa trả lời')} />

      <div className="result-actions">
        <Link className="btn" href={`/giay-chung-nhan/${data.child_id}`}>
          Xem giấy chứng nhận
        </Link>
        <Link className="btn btn-outline" href="/du-thi">
          Về trang Vào thi
        </Link>
      </div>
    </>
  );
}
