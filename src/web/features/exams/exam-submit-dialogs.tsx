// The dialogs before a submit: the questions left (each a button to it), or the confirmation.
import { useEffect, useState } from 'react';
import { examMessages, messages } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { PREDICTION_INDEX } from './exam-backend';
import type { NavigatorItem } from './exam-navigator';

/**
 * Nộp bài pressed: with items left, they are marked (`mark`, the prediction at PREDICTION_INDEX)
 * and listed; else the confirmation. Another screen taking the paper over closes both: its choice
 * comes before anything else.
 */
export function useSubmitRequest(items: NavigatorItem[], mark: (missing: Set<number>) => void, takenOver: boolean) {
  const [confirming, setConfirming] = useState(false);
  /** Submit pressed with questions left: their positions (0-based), listed in a dialog. */
  const [unanswered, setUnanswered] = useState<number[] | null>(null);
  useEffect(() => {
    if (!takenOver) return;
    setConfirming(false);
    setUnanswered(null);
  }, [takenOver]);
  const lastIndex = items.length - 1;
  const request = () => {
    const missingItems = new Set(items.flatMap((item, index) => (item.answered ? [] : [index === lastIndex ? PREDICTION_INDEX : index])));
    if (missingItems.size > 0) {
      mark(missingItems);
      setUnanswered(items.flatMap((item, index) => (item.answered ? [] : [index])));
      return;
    }
    mark(new Set());
    setConfirming(true);
  };
  return { confirming, unanswered, request, closeConfirm: () => setConfirming(false), closeUnanswered: () => setUnanswered(null) };
}

/** Submit pressed with questions left: their positions (0-based), each a way back to it. */
export function UnansweredDialog({ positions, onClose, onJump }: { positions: number[]; onClose: () => void; onJump: (index: number) => void }) {
  return (
    <Modal
      title={examMessages.unansweredTitle(positions.length)}
      onClose={onClose}
      actions={
        <Button variant="outline" onClick={onClose}>
          Làm tiếp
        </Button>
      }
    >
      <p>{messages.answerAllQuestions}.</p>
      <ul className="exam-unanswered">
        {positions.map((index) => (
          <li key={index}>
            <button
              type="button"
              className="exam-unanswered-link"
              onClick={() => {
                onClose();
                onJump(index);
              }}
            >
              Câu {index + 1}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

export function ConfirmSubmitDialog({ onClose, onConfirm }: { onClose: () => void; onConfirm: () => void }) {
  return (
    <Modal
      title={examMessages.confirmSubmitTitle}
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            Làm tiếp
          </Button>
          <Button
            variant="accent"
            onClick={() => {
              onClose();
              onConfirm();
            }}
          >
            Nộp bài
          </Button>
        </>
      }
    >
      <p>{examMessages.confirmSubmitText}</p>
    </Modal>
  );
}
