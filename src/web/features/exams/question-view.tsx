// One question on the exam screen: the answers are whole-width cards that are real radio
// buttons (keyboard and screen readers work as for any radio group). A speaker button beside the
// question and each answer reads it aloud when the device can (read-aloud.ts).
import { useId, type MouseEvent } from 'react';
import { Check, Volume2 } from 'lucide-react';
import type { ExamQuestionView } from '../../../shared/schemas/exams';
import { parsePredictionInput } from '../../../shared/exam-input';
import { readAloudSource, type Reading } from './read-aloud';

export const ANSWER_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

/** What the question needs of the reader (useReadAloud). */
export interface ReadAloud {
  voiceAvailable: boolean;
  reading: Reading | undefined;
  read: (key: string, text: string, clip?: string | null) => void;
  stop: () => void;
}

/** The text with the word being read marked (where the device reports words). */
function Spoken({ text, reading, readingKey }: { text: string; reading: Reading | undefined; readingKey: string }) {
  const word = reading?.key === readingKey ? reading.word : undefined;
  if (!word) return <>{text}</>;
  return (
    <>
      {text.slice(0, word.start)}
      <mark className="exam-reading-word">{text.slice(word.start, word.end)}</mark>
      {text.slice(word.end)}
    </>
  );
}

function SpeakButton({ label, readingKey, text, clip, readAloud }: { label: string; readingKey: string; text: string; clip?: string; readAloud: ReadAloud }) {
  if (!readAloudSource(clip, readAloud.voiceAvailable)) return null;
  const active = readAloud.reading?.key === readingKey;
  const toggle = (event: MouseEvent) => {
    // Inside an answer's label: reading it must not choose it.
    event.preventDefault();
    event.stopPropagation();
    if (active) readAloud.stop();
    else readAloud.read(readingKey, text, clip);
  };
  return (
    <button type="button" className="exam-speak" aria-label={label} aria-pressed={active} onClick={toggle}>
      <Volume2 aria-hidden="true" size={22} />
    </button>
  );
}

export function QuestionView({
  number,
  question,
  chosen,
  disabled,
  onChoose,
  readAloud,
}: {
  number: number;
  question: ExamQuestionView;
  chosen: number | undefined;
  disabled: boolean;
  onChoose: (answerId: number) => void;
  readAloud: ReadAloud;
}) {
  const name = useId();
  const questionKey = `q${question.id}`;
  return (
    <fieldset className="exam-question" disabled={disabled}>
      {/* The heading inside the legend: the radio group keeps its name, and a move to this
          question focuses the heading (tabIndex -1) for screen readers. */}
      <legend className="exam-question-legend">
        <h2 className="exam-question-text" tabIndex={-1}>
          <span className="exam-question-number">Câu {number}</span>
          <Spoken text={question.value} reading={readAloud.reading} readingKey={questionKey} />
        </h2>
      </legend>
      <div className="exam-question-tools">
        <SpeakButton label={`Đọc câu ${number} cho em nghe`} readingKey={questionKey} text={question.value} clip={question.audio} readAloud={readAloud} />
      </div>
      <div className="exam-answers">
        {question.answers.map((answer, index) => {
          const selected = chosen === answer.id;
          const answerKey = `a${answer.id}`;
          const letter = ANSWER_LETTERS[index]!;
          return (
            <div key={answer.id} className="exam-answer-row">
              <label className="exam-answer" data-selected={selected || undefined}>
                <input
                  type="radio"
                  className="visually-hidden"
                  name={name}
                  value={answer.id}
                  checked={selected}
                  onChange={() => onChoose(answer.id)}
                />
                <span className="exam-answer-letter" aria-hidden="true">
                  {selected ? <Check size={20} strokeWidth={3} /> : letter}
                </span>
                <span className="exam-answer-text">
                  <Spoken text={answer.value} reading={readAloud.reading} readingKey={answerKey} />
                </span>
              </label>
              <SpeakButton label={`Đọc đáp án ${letter} cho em nghe`} readingKey={answerKey} text={`${letter}. ${answer.value}`} clip={answer.audio} readAloud={readAloud} />
            </div>
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
  onEnter,
}: {
  number: number;
  text: string;
  disabled: boolean;
  onChange: (text: string) => void;
  /** Enter in the field: the last item, so the submit confirmation opens. */
  onEnter: () => void;
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
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault();
              onEnter();
            }
          }}
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
