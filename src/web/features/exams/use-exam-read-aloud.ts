// Read-aloud on the exam screen (read-aloud.ts): a move to another item ends the reading, the clips
// of this item and the next are fetched ahead (a weak network does not cut them), and a voice that
// failed is said by the timer once, for VOICE_NOTICE_MS, then leaves the bar to the exam's messages.
import { useEffect, useState } from 'react';
import type { ExamQuestionView } from '../../../shared/schemas/exams';
import { useReadAloud } from './read-aloud';

/** How long the failed read-aloud voice is said by the timer (ms): long enough to read it twice. */
const VOICE_NOTICE_MS = 15_000;

export function useExamReadAloud(questions: readonly ExamQuestionView[], current: number) {
  const readAloud = useReadAloud();
  const [voiceNoticeSeen, setVoiceNoticeSeen] = useState(false);
  useEffect(() => {
    if (!readAloud.voiceFailed) return;
    const timer = setTimeout(() => setVoiceNoticeSeen(true), VOICE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [readAloud.voiceFailed]);

  const { stop, prefetch } = readAloud;
  useEffect(() => {
    stop();
    prefetch(
      [current, current + 1].flatMap((index) => {
        const question = questions[index];
        return question ? [question.audio, ...question.answers.map((answer) => answer.audio)] : [];
      }),
    );
  }, [current, questions, stop, prefetch]);

  return { readAloud, voiceNotice: readAloud.voiceFailed && !voiceNoticeSeen };
}
