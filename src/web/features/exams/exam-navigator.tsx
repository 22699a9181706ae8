// The 21 question buttons: answered ones carry a check mark as well as a colour, unanswered
// ones that blocked a submit carry an exclamation mark (never colour alone, DESIGN.md).
import { Check, CircleAlert } from 'lucide-react';

export interface NavigatorItem {
  answered: boolean;
  /** Marked after a refused submit. */
  missing: boolean;
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
