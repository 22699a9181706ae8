// Result review (/ket-qua-thi/:slugExam, spec section 2): book, points, completion time,
// prediction, and each question with the contestant's answer and the correct one (marked with
// words and an icon as well as colour).
import { useEffect, useState } from 'react';
import type { ExamResultResponse } from '../../../shared/schemas/exams';
import { ApiRequestError, isRetryable } from '../../lib/api-client';
import { formatNumber } from '../../../shared/format';
import { Link, useParams } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import { useRequireAuth } from '../../lib/use-require-auth';
import { fetchExamResult } from './exam-api';
import './exams.css';
import { LoadError } from './load-error';
import { ReviewQuestion } from './review-question';

// retry: a retry can help (network, 503, a server fault); otherwise the answer is final
// (unknown exam, exam not submitted) and the way forward is the 'Vào thi' page.
type State = { kind: 'loading' } | { kind: 'ready'; result: ExamResultResponse } | { kind: 'error'; message: string; retry: boolean };

export function ResultPage() {
  usePageTitle('Kết quả thi');
  const { slugExam } = useParams<{ slugExam?: string }>();
  const session = useRequireAuth();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!session || !slugExam) return;
    let active = true;
    fetchExamResult(slugExam).then(
      (result) => active && setState({ kind: 'ready', result }),
      (error: unknown) => {
        if (!active) return;
        // Result load failure shows the server message (spec section 8).
        const retry = isRetryable(error) || (error instanceof ApiRequestError && error.status >= 500);
        if (error instanceof ApiRequestError) setState({ kind: 'error', message: error.body.message, retry });
        else {
          console.warn('Không tải được kết quả thi', error);
          setState({ kind: 'error', message: 'Không tải được kết quả thi. Vui lòng kiểm tra kết nối mạng.', retry: true });
        }
      },
    );
    return () => {
      active = false;
    };
  }, [session, slugExam, attempt]);

  if (!session) return <div className="container page" />;
  return (
    <div className="container page">
      <h1>Kết quả thi</h1>
      {state.kind === 'loading' && (
        <p className="muted" aria-busy="true">
          Đang tải kết quả…
        </p>
      )}
      {state.kind === 'error' && (
        <LoadError message={state.message} canRetry={state.retry} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      {state.kind === 'ready' && <ResultView result={state.result} />}
    </div>
  );
}

function ResultView({ result }: { result: ExamResultResponse }) {
  const { data, children } = result;
  const byQuestion = new Map(data.data_result.map((item) => [item.question_id, item]));
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

      <h2>Đáp án từng câu</h2>
      <ol className="result-questions">
        {data.data_questions.map((question, index) => (
          <ReviewQuestion
            key={question.id}
            number={index + 1}
            question={question}
            item={byQuestion.get(question.id)}
            verdict={(right, answered) => (right ? (answered ? 'Trả lời đúng' : 'Được tính điểm') : answered ? 'Trả lời sai' : 'Chưa trả lời')}
          />
        ))}
      </ol>

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
