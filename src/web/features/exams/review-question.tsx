// One question of a finished exam or practice round, as the child reviews it: the verdict in
// words and an icon (never colour alone), the answer chosen and every answer counted right (a
// regraded question may count several), and the regrade note when there is one.
import { CircleCheck, CircleX } from 'lucide-react';
import type { ExamQuestionView, ExamResultResponse } from '../../../shared/schemas/exams';

type ReviewItem = ExamResultResponse['data']['data_result'][number];

/** The questions of a finished exam or practice round in order, each with its result item. */
export function ReviewQuestions({
  questions,
  results,
  verdict,
}: {
  questions: readonly ExamQuestionView[];
  results: readonly ReviewItem[];
  verdict: (right: boolean, answered: boolean) => string;
}) {
  const byQuestion = new Map(results.map((item) => [item.question_id, item]));
  return (
    <ol className="result-questions">
      {questions.map((question, index) => (
        <ReviewQuestion key={question.id} number={index + 1} question={question} item={byQuestion.get(question.id)} verdict={verdict} />
      ))}
    </ol>
  );
}

function ReviewQuestion({
  number,
  question,
  item,
  verdict,
}: {
  number: number;
  question: ExamQuestionView;
  item: ReviewItem | undefined;
  /** The verdict's words: right or not, and whether an answer was chosen. */
  verdict: (right: boolean, answered: boolean) => string;
}) {
  const chosen = item?.answer_id_user ?? null;
  const correct = item?.answer_ids_correct ?? [];
  const right = item?.is_correct ?? false;
  // The season holds the correct answers back until the exam window closes (issue 40): only the
  // answer chosen, no verdict.
  if (item && item.is_correct === null) {
    return (
      <li className="card result-question">
        <h3>
          Câu {number}. {question.value}
        </h3>
        <p className="result-question-verdict">{chosen === null ? 'Chưa trả lời' : 'Đã trả lời'}</p>
        <ul className="result-answers">
          {question.answers.map((answer) => (
            <li key={answer.id} className="result-answer">
              <span className="result-answer-text">{answer.value}</span>
              {answer.id === chosen && <span className="result-answer-tag">Em chọn</span>}
            </li>
          ))}
        </ul>
      </li>
    );
  }
  return (
    <li className="card result-question">
      <h3>
        Câu {number}. {question.value}
      </h3>
      <p className="result-question-verdict" data-correct={right || undefined} data-wrong={!right || undefined}>
        {right ? <CircleCheck aria-hidden="true" size={20} /> : <CircleX aria-hidden="true" size={20} />}
        {verdict(right, chosen !== null)}
      </p>
      {item?.regrade_note && <p className="result-regrade-note">{item.regrade_note}</p>}
      <ul className="result-answers">
        {question.answers.map((answer) => {
          const isCorrect = correct.includes(answer.id);
          const isChosen = answer.id === chosen;
          return (
            <li key={answer.id} className="result-answer" data-correct={isCorrect || undefined} data-wrong={(isChosen && !right) || undefined}>
              <span className="result-answer-text">{answer.value}</span>
              {isChosen && (
                <span className="result-answer-tag">
                  {right ? <CircleCheck aria-hidden="true" size={16} /> : <CircleX aria-hidden="true" size={16} />}
                  Em chọn
                </span>
              )}
              {isCorrect && (
                <span className="result-answer-tag">
                  <CircleCheck aria-hidden="true" size={16} />
                  Đáp án đúng
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </li>
  );
}
