// The exam screen's comforts for young children: the text size and the folded timer (kept on the
// device), the calm notices at 5 and 1 minutes left, and the keyboard's shortcuts.
import { useCallback, useState } from 'react';

export const TEXT_SIZES = [
  { value: 1, label: 'Chữ vừa' },
  { value: 2, label: 'Chữ lớn' },
  { value: 3, label: 'Chữ rất lớn' },
] as const;
export type TextSize = (typeof TEXT_SIZES)[number]['value'];

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeStored(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or full storage: the choice lasts for this page only.
  }
}

/** A choice kept on the device (text size, folded timer). */
export function useDevicePreference<T extends string | number | boolean>(key: string, fallback: T, parse: (raw: string) => T | undefined) {
  const [value, setValue] = useState<T>(() => {
    const raw = readStored(key);
    const stored = raw === null ? undefined : parse(raw);
    return stored === undefined ? fallback : stored;
  });
  const update = useCallback(
    (next: T) => {
      setValue(next);
      writeStored(key, String(next));
    },
    [key],
  );
  return [value, update] as const;
}

export const parseTextSize = (raw: string): TextSize | undefined => TEXT_SIZES.find((size) => String(size.value) === raw)?.value;
export const parseBoolean = (raw: string) => (raw === 'true' ? true : raw === 'false' ? false : undefined);

/** Minutes left at which the child is told, calmly, once each. */
export const TIME_NOTICE_MINUTES = [5, 1] as const;

/**
 * The notice due when the time left goes from `beforeMs` to `nowMs`: the smallest threshold
 * crossed (a screen opened with 40 s left says "less than 1 minute", not 5 as well), or undefined.
 */
export function timeNoticeCrossed(beforeMs: number, nowMs: number): (typeof TIME_NOTICE_MINUTES)[number] | undefined {
  if (nowMs <= 0) return undefined;
  const crossed = TIME_NOTICE_MINUTES.filter((minutes) => beforeMs > minutes * 60_000 && nowMs <= minutes * 60_000);
  return crossed.at(-1);
}

/**
 * The notice's words. At 1 minute left the child is told to submit only when everything is
 * answered; otherwise how many items are still to answer (issue 20), updated as they answer.
 */
export function timeNoticeText(minutes: number, unanswered: number) {
  if (minutes !== 1) return `Còn dưới ${minutes} phút nữa là hết giờ. Em cứ bình tĩnh làm tiếp nhé.`;
  return unanswered > 0
    ? `Còn dưới 1 phút nữa là hết giờ. Em còn ${unanswered} câu chưa trả lời.`
    : 'Còn dưới 1 phút nữa là hết giờ. Em đã trả lời hết, hãy bấm Nộp bài nhé.';
}

export type ExamKeyAction = { kind: 'choose'; index: number } | { kind: 'move'; by: -1 | 1 } | { kind: 'submit' };

/**
 * What a key press does on the exam screen: 1-4 or A-D choose an answer, the left/right arrows
 * or J/K move between questions, Enter on the last item asks to submit. Nothing while typing in a
 * field (the prediction handles its own Enter), with a modifier key, or on a button or link.
 */
export function examKeyAction(
  key: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean },
  target: { tagName: string; type?: string; isContentEditable?: boolean } | null,
  context: { answers: number; onLastItem: boolean },
): ExamKeyAction | undefined {
  if (key.altKey || key.ctrlKey || key.metaKey) return undefined;
  const tag = target?.tagName.toLowerCase() ?? '';
  const typing = tag === 'textarea' || tag === 'select' || target?.isContentEditable || (tag === 'input' && target?.type !== 'radio');
  if (typing) return undefined;
  const onControl = tag === 'button' || tag === 'a';
  const k = key.key.length === 1 ? key.key.toUpperCase() : key.key;
  if (k === 'ArrowLeft' || k === 'K') return { kind: 'move', by: -1 };
  if (k === 'ArrowRight' || k === 'J') return { kind: 'move', by: 1 };
  if (k === 'Enter') return context.onLastItem && !onControl ? { kind: 'submit' } : undefined;
  const digit = '1234'.indexOf(k);
  const letter = 'ABCD'.indexOf(k);
  const index = digit >= 0 ? digit : letter;
  return index >= 0 && index < context.answers ? { kind: 'choose', index } : undefined;
}
