// The practice result (/thi-thu/ket-qua/:slug, issue 14): how many answers were right, then each
// question with the child's answer and the right one (in words and icons, not colour alone),
// clearly labelled as practice, with 'Thi thử lần nữa' and 'Vào thi thật'.
import { PartyPopper } from 'lucide-react';
import { practiceMessages } from '../../../../shared/messages';
import { formatNumber } from '../../../../shared/format';
import type { PracticeResultResponse } from '../../../../shared/schemas/practice';
import { Button } from '../../../components/ui/button';
import { useData } from '../../../lib/use-data';
import { Link, useParams } from '../../../lib/router';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRequireAuth } from '../../../lib/use-require-auth';
import { ResultAtAddress, wellFormedSlug } from '../load-error';
import { ReviewQuestions } from '../review-question';
import '../exams.css';
import { fetchPracticeResult } from './practice-api';
import { useStartPractice } from './use-start-practice';
import './practice.css';

export function PracticeResultPage() {
  usePageTitle(practiceMessages.resultTitle);
  const slug = wellFormedSlug(useParams<{ slug?: string }>().slug);
  const session = useRequireAuth();
  const result = useData(session && slug ? slug : null, () => fetchPracticeResult(slug ?? ''), { failed: practiceMessages.loadStatusFailed });

  if (!session) return <div className="container page" />;
  return (
    <div className="container page practice-result">
      <h1>
        <span className="exam-practice-badge">Thi thử</span> {practiceMessages.resultTitle}
      </h1>
      <ResultAtAddress slug={slug} notFound={practiceMessages.notFound} load={result} loadingText={practiceMessages.loadingResult}>
        {(data) => <PracticeResultView result={data} />}
      </ResultAtAddress>
    </div>
  );
}

function PracticeResultView({ result }: { result: PracticeResultResponse }) {
  const { data, children } = result;
  const { start, busy } = useStartPractice();
  const allRight = data.correct_count === data.question_count;

  return (
    <>
      <p className="practice-note">{practiceMessages.resultNote}</p>
      <div className="practice-score card">
        <p className="practice-score-child">
          Thí sinh <strong>{children.fullname}</strong>
        </p>
        <p className="practice-score-count">
          {allRight && <PartyPopper aria-hidden="true" size={28} />}
          {practiceMessages.score(data.correct_count, data.question_count)}
        </p>
        <p>{allRight ? practiceMessages.allRight : practiceMessages.encourage}</p>
        <p>Dự đoán số bài thi của em: {data.prediction === null ? 'Chưa trả lời' : formatNumber(data.prediction)}</p>
      </div>

      <div className="result-actions practice-actions">
        <Button variant="accent" onClick={() => void start(data.child_id)} disabled={busy}>
          {practiceMessages.again}
        </Button>
        <Link className="btn btn-outline" href="/du-thi">
          {practiceMessages.realExam}
        </Link>
      </div>

      <h2>Đáp án từng câu</h2>
      <ReviewQuestions questions={data.data_questions} results={data.data_result} verdict={(right, answered) => (right ? 'Em trả lời đúng' : answered ? 'Em trả lời chưa đúng' : 'Em chưa trả lời')} />
    </>
  );
}
