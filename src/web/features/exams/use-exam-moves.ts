// Moving between the items of the exam screen: by the buttons, the navigator or the keyboard
// (1-4 or A-D choose, the arrows or J/K move, Enter on the last item asks to submit). After a move
// the question's start sits just below the sticky timer bar (it would hide under it), and its
// heading takes the focus for screen readers, without a scroll of its own.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ExamQuestionView } from '../../../shared/schemas/exams';
import type { AnswerStore } from './answer-store';
import { examKeyAction } from './exam-comfort';

/** Room between the sticky timer bar and the question brought into view (px). */
const QUESTION_GAP_PX = 8;

/** `jump` moves to an item (0-based); `questionRef` and `topbarRef` go on the question card and the timer bar. */
export function useQuestionMoves(store: AnswerStore, current: number) {
  const questionRef = useRef<HTMLDivElement>(null);
  const topbarRef = useRef<HTMLDivElement>(null);
  /** Set by a move to another item: the next render brings it into view and focuses its heading. */
  const moved = useRef(false);
  const jump = (index: number) => {
    moved.current = true;
    store.goTo(index);
  };

  useLayoutEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    const card = questionRef.current;
    const bar = topbarRef.current;
    const heading = card?.querySelector<HTMLElement>('h2');
    heading?.focus({ preventScroll: true });
    if (!card || !bar) return;
    // Where the bar sits once stuck (its CSS top), whether or not it is stuck right now.
    const barBottom = Number.parseFloat(getComputedStyle(bar).top) + bar.offsetHeight;
    const cardTop = card.getBoundingClientRect().top;
    const textBottom = (heading ?? card).getBoundingClientRect().bottom;
    if (cardTop < barBottom + QUESTION_GAP_PX || textBottom > window.innerHeight) {
      window.scrollBy({ top: cardTop - barBottom - QUESTION_GAP_PX, behavior: 'instant' });
    }
  }, [current]);

  return { jump, questionRef, topbarRef };
}

/** The keyboard: nothing while `blocked` (a dialog is open); answers only while `canAnswer`. */
export function useExamKeys(options: {
  blocked: boolean;
  /** The question on screen (undefined on the prediction, the last item). */
  question: ExamQuestionView | undefined;
  current: number;
  lastIndex: number;
  canAnswer: boolean;
  canSubmit: boolean;
  jump: (index: number) => void;
  choose: (questionId: number, answerId: number) => void;
  requestSubmit: () => void;
}) {
  const onKey = useRef<(event: KeyboardEvent) => void>(() => undefined);
  onKey.current = (event) => {
    const { blocked, question, current, lastIndex } = options;
    if (blocked) return;
    const action = examKeyAction(event, event.target instanceof HTMLElement ? event.target : null, {
      answers: question?.answers.length ?? 0,
      onLastItem: current === lastIndex,
    });
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'move') {
      const next = current + action.by;
      if (next >= 0 && next <= lastIndex) options.jump(next);
    } else if (action.kind === 'choose') {
      if (question && options.canAnswer) options.choose(question.id, question.answers[action.index]!.id);
    } else if (options.canSubmit) {
      options.requestSubmit();
    }
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
