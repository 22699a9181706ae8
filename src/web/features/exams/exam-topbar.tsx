// The exam screen's sticky bar: the time left (or, folded, a thin bar of it), the save indicator,
// the time notices and every message of the screen, so that they are on screen wherever the child
// has scrolled (issue 20). The time turns to the accent colour for the last 2 minutes.
import type { Ref } from 'react';
import { ChevronsDownUp, ChevronsUpDown, CircleCheck, CloudOff, Loader, Timer } from 'lucide-react';
import { examMessages, messages } from '../../../shared/messages';
import type { AnswerStore, SaveStatus } from './answer-store';
import type { Phase } from './use-exam-submit';

/** The time turns to the accent colour for the last 2 minutes. */
const TIME_WARNING_MS = 120_000;
/** The save indicator when another screen writes the exam (issue 20). */
const STOPPED_TEXT = 'Đã dừng lưu';
/** The writer conflict in the messages by the timer (the dialog says the rest). */
const ELSEWHERE_TEXT = 'Bài thi đang được mở ở nơi khác: màn hình này đã dừng lưu bài.';
/** The paper shown from the device after a reload without network (issue 24.8). */
const OFFLINE_TEXT = 'Máy đang mất mạng. Bài làm của em vẫn được giữ trên máy và sẽ tự lưu khi có mạng trở lại.';

/** What the screen has to say, most pressing first: all of it by the timer, never off screen. */
export function screenAlerts({
  store,
  phase,
  remainingMs,
  submitIssue,
  submitError,
  voiceNotice,
  offline,
}: {
  store: Pick<AnswerStore, 'elsewhere' | 'refusal'>;
  phase: Phase;
  remainingMs: number;
  submitIssue: string | null;
  submitError: string | null;
  voiceNotice: boolean;
  /** The paper came from the device and the network is still away. */
  offline: boolean;
}): string[] {
  const timeUpShown = phase === 'timeup' || phase === 'failed' || ((phase === 'submitting' || phase === 'waiting') && remainingMs <= 0);
  return [
    store.elsewhere && ELSEWHERE_TEXT,
    offline && OFFLINE_TEXT,
    timeUpShown && `${messages.timeUp}. ${phase === 'failed' ? '' : examMessages.autoSubmitting}`.trim(),
    submitIssue !== null && (phase === 'submitting' || phase === 'waiting') && `${examMessages.submitFailedTitle}. ${submitIssue}`,
    submitError !== null && phase !== 'done' && `${examMessages.submitFailedTitle}. ${submitError}`,
    store.refusal && store.refusal.code !== 'time_up' && store.refusal.code !== 'exam_submitted' && store.refusal.message,
    voiceNotice && examMessages.voiceFailed,
  ].filter((text): text is string => typeof text === 'string' && text !== '');
}

export function ExamTopbar({
  barRef,
  remainingMs,
  totalMs,
  timeText,
  status,
  folded,
  onFold,
  notice,
  alerts,
}: {
  barRef: Ref<HTMLDivElement>;
  remainingMs: number;
  totalMs: number;
  timeText: string;
  status: SaveStatus;
  folded: boolean;
  onFold: (folded: boolean) => void;
  /** The time notice (5 and 1 minutes left), '' when none. */
  notice: string;
  /** What the screen has to say, most pressing first. */
  alerts: string[];
}) {
  return (
    <div className="exam-topbar" ref={barRef} data-folded={folded || undefined}>
      <div className="exam-topbar-row">
        <p className="exam-time" data-warning={remainingMs <= TIME_WARNING_MS || undefined}>
          <Timer aria-hidden="true" size={20} />
          <span className={folded ? 'visually-hidden' : undefined}>
            <span className="visually-hidden">Thời gian còn lại: </span>
            <time>{timeText}</time>
          </span>
          {folded && <TimeBar remainingMs={remainingMs} totalMs={totalMs} />}
        </p>
        <SaveIndicator status={status} />
        <button type="button" className="exam-fold" aria-pressed={folded} aria-label={folded ? 'Hiện đồng hồ' : 'Thu gọn đồng hồ'} onClick={() => onFold(!folded)}>
          {folded ? <ChevronsUpDown aria-hidden="true" size={20} /> : <ChevronsDownUp aria-hidden="true" size={20} />}
        </button>
      </div>
      {/* The time notices: spoken when one is crossed (5 and 1 minutes left), never every second. */}
      <p className="exam-message exam-time-notice" role="status" aria-live="polite">
        {notice}
      </p>
      {alerts.map((text) => (
        <p key={text} className="exam-message exam-alert" role="alert">
          {text}
        </p>
      ))}
    </div>
  );
}

function SaveIndicator({ status }: { status: SaveStatus }) {
  if (status === 'closed') return null;
  const [Icon, text] =
    status === 'saved'
      ? [CircleCheck, examMessages.saved]
      : status === 'saving'
        ? [Loader, examMessages.saving]
        : status === 'stopped'
          ? [CloudOff, STOPPED_TEXT]
          : [CloudOff, examMessages.notSaved];
  return (
    <p className="exam-save-status" data-status={status} role="status">
      <Icon aria-hidden="true" size={18} />
      {text}
    </p>
  );
}

/** The folded timer: a thin bar of the time left (the digits stay for screen readers). */
function TimeBar({ remainingMs, totalMs }: { remainingMs: number; totalMs: number }) {
  const share = totalMs > 0 ? Math.min(1, Math.max(0, remainingMs / totalMs)) : 0;
  return (
    <span className="exam-time-bar" aria-hidden="true">
      <span style={{ width: `${share * 100}%` }} />
    </span>
  );
}
