// One question on the exam screen: the answers are whole-width cards that are real radio
// buttons (keyboard and screen readers work as for any radio group).
import { useId } from 'react';
import { Check } from 'lucide-react';
import type { ExamQuestionView } from '../../../shared/schemas/exams';
import { parsePredictionInput } from '../../../shared/schemas/exams';

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

export function QuestionView({
  number,
  question,
  chosen,
  disabled,
  onChoose,
}: {
  number: number;
  question: ExamQuestionView;
  chosen: number | undefined;
  disabled: boolean;
  onChoose: (answerId: number) => void;
}) {
  const name = useId();
  return (
    <fieldset className="exam-question" disabled={disabled}>
      {/* The heading inside the legend: the radio group keeps its name, and a move to this
          question focuses the heading (tabIndex -1) for screen readers. */}
      <legend className="exam-question-legend">
        <h2 className="exam-question-text" tabIndex={-1}>
          <span className="exam-question-number">Câu {number}</span>
          {question.value}
        </h2>
      </legend>
      <div className="exam-answers">
        {question.answers.map((answer, index) => {
          const selected = chosen === answer.id;
          return (
            <label key={answer.id} className="exam-answer" data-selected={selected || undefined}>
              <input
                type="radio"
                className="visually-hidden"
                name={name}
                value={answer.id}
                checked={selected}
                onChange={() => onChoose(answer.id)}
              />
              <span className="exam-answer-letter" aria-hidden="true">
                {selected ? <Check size={20} strokeWidth={3} /> : LETTERS[index]}
              </span>
              <span className="exam-answer-text">{answer.value}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Question 21 (pseudo-question id special): the prediction, a whole number >= 0. */
export function PredictionView({
  number,
  text,
  disabled,
  onChange,
}: {
  number: number;
  text: string;
  disabled: boolean;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const error = parsePredictionInput(text).error;
  return (
    <div className="exam-question">
      <h2 className="exam-question-text" id={`${id}-question`} tabIndex={-1}>
        <span className="exam-question-number">Câu {number} – Câu hỏi dự đoán</span>
        Theo em, có bao nhiêu bài thi tham gia cuộc thi này?
      </h2>
      <div className="field exam-prediction" data-invalid={error ? 'true' : undefined}>
        <label htmlFor={id}>Số bài thi em dự đoán</label>
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          enterKeyHint="done"
          value={text}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-question`, error && `${id}-error`].filter(Boolean).join(' ')}
          onChange={(event) => onChange(event.target.value)}
        />
        {error && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
    </div>
  );
}
