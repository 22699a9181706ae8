// The 21 question buttons: answered ones carry a check mark as well as a colour, unanswered
// ones that blocked a submit carry an exclamation mark (never colour alone, DESIGN.md); and the
// previous/next buttons.
import { Check, ChevronLeft, ChevronRight, CircleAlert } from 'lucide-react';
import { TOTAL_EXAM_ITEMS } from '../../../shared/rules';
import { Button } from '../../components/ui/button';
import { PREDICTION_INDEX } from './exam-backend';

export interface NavigatorItem {
  answered: boolean;
  /** Marked after a refused submit. */
  missing: boolean;
}

/**
 * The items of a paper: its questions, then the prediction, always last (fewer questions than 20
 * in the bank leave no gap). `missing` holds positions with the prediction at PREDICTION_INDEX.
 */
export function paperItems(questionIds: readonly number[], sheet: { answers: Record<string, number>; prediction: number | undefined }, missing: ReadonlySet<number>): NavigatorItem[] {
  const items = Array.from({ length: TOTAL_EXAM_ITEMS }, (_, index) => ({
    answered: index === PREDICTION_INDEX ? sheet.prediction !== undefined : sheet.answers[questionIds[index] ?? -1] !== undefined,
    missing: missing.has(index),
  }));
  return [...items.slice(0, questionIds.length), items[PREDICTION_INDEX]!];
}

export function ExamNavigator({ items, current, onJump }: { items: NavigatorItem[]; current: number; onJump: (index: number) => void }) {
  const answered = items.filter((item) => item.answered).length;
  return (
    <nav className="exam-navigator" aria-label="Danh sách câu hỏi">
      <p className="exam-navigator-summary">
        Đã trả lời <strong>{answered}</strong>/{items.length} câu
      </p>
      <ol className="exam-navigator-grid">
        {items.map((item, index) => {
          const state = item.answered ? 'đã trả lời' : item.missing ? 'chưa trả lời, cần làm' : 'chưa trả lời';
          return (
            <li key={index}>
              <button
                type="button"
                className="exam-navigator-item"
                data-answered={item.answered || undefined}
                data-missing={(!item.answered && item.missing) || undefined}
                aria-current={index === current ? 'step' : undefined}
                aria-label={`Câu ${index + 1}, ${state}`}
                onClick={() => onJump(index)}
              >
                <span aria-hidden="true">{index + 1}</span>
                {item.answered && <Check className="exam-navigator-mark" aria-hidden="true" size={14} strokeWidth={3} />}
                {!item.answered && item.missing && <CircleAlert className="exam-navigator-mark" aria-hidden="true" size={14} strokeWidth={3} />}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function ExamSteps({ current, count, onJump }: { current: number; count: number; onJump: (index: number) => void }) {
  return (
    <div className="exam-steps">
      <Button variant="outline" onClick={() => onJump(current - 1)} disabled={current === 0}>
        <ChevronLeft aria-hidden="true" size={20} /> Câu trước
      </Button>
      <span className="exam-step-count" aria-hidden="true">
        {current + 1}/{count}
      </span>
      <Button variant="outline" onClick={() => onJump(current + 1)} disabled={current === count - 1}>
        Câu sau <ChevronRight aria-hidden="true" size={20} />
      </Button>
    </div>
  );
}
