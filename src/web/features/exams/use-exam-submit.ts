// The exam screen's submit: the phase of the paper, the submit retried while the server is briefly
// away (after a pause, or at once when the child presses Nộp bài, the connection returns or the
// parent logs in again), the questions the server found unanswered, and the end of the paper.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { messages } from '../../../shared/messages';
import { NOTICE_MS } from '../../../shared/rules';
import type { ExamQuestionView } from '../../../shared/schemas/exams';
import { notify } from '../../components/ui/notices';
import { ApiRequestError, isRetryable, retryDelayMs } from '../../lib/api-client';
import { useNavigate } from '../../lib/router';
import type { AnswerStore } from './answer-store';
import { isOpenElsewhere, isSessionEnded, isTransient } from './exam-api';
import { PREDICTION_INDEX, RETRY_BACKOFF, retryAfterOf, type ExamBackend } from './exam-backend';
import { forgetPaper } from './kept-paper';

/**
 * waiting: a submit failed because the server is briefly away; it is tried again after a pause
 * (or at once when the child presses Nộp bài or the connection returns).
 * failed: the time is up and the automatic submit was refused; the child may press Nộp bài again.
 */
export type Phase = 'answering' | 'timeup' | 'submitting' | 'waiting' | 'failed' | 'done';

/** Whether the screen is still mounted: answers arriving after it left change nothing. */
export function useMountedRef(): RefObject<boolean> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

export function useExamSubmit({ store, backend, questions, mounted }: { store: AnswerStore; backend: ExamBackend; questions: readonly ExamQuestionView[]; mounted: RefObject<boolean> }) {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>('answering');
  /** Items (0-based, the prediction at PREDICTION_INDEX) the server or the child's submit found unanswered. */
  const [missing, setMissing] = useState<Set<number>>(new Set());
  /** Why the last submit did not go through while it is being retried (the server's or the client's text). */
  const [submitIssue, setSubmitIssue] = useState<string | null>(null);
  /** Why the last submit was refused (kept by the timer until the next submit). */
  const [submitError, setSubmitError] = useState<string | null>(null);
  /** A time check or a submit met a 401 (a save's 401 is store.loginNeeded). */
  const [sessionEnded, setSessionEnded] = useState(false);
  /** Ends the pause before the next submit attempt early. */
  const wakeSubmit = useRef<(() => void) | null>(null);
  const finished = useRef(false);

  const wake = useCallback(() => wakeSubmit.current?.(), []);
  const endSession = useCallback(() => setSessionEnded(true), []);

  const finish = useCallback(
    (message: string) => {
      // Once: a re-sync or a refused save may learn of the submit while a submit is retried.
      if (finished.current) return;
      finished.current = true;
      store.close();
      forgetPaper({ slug: store.slug });
      setSubmitIssue(null);
      setPhase('done');
      notify('success', message);
      setTimeout(() => mounted.current && navigate(backend.finishedPath), NOTICE_MS);
    },
    [store, navigate, backend.finishedPath, mounted],
  );

  const submit = useCallback(
    async (auto: boolean) => {
      /** Waits `ms` before the next attempt (without `ms`, until woken), unless woken earlier
       * (Nộp bài pressed, back online, the parent logged in again). */
      const pause = (ms?: number) =>
        new Promise<void>((resolve) => {
          const wakeUp = () => {
            clearTimeout(timer);
            wakeSubmit.current = null;
            resolve();
          };
          const timer = ms === undefined ? undefined : setTimeout(wakeUp, ms);
          wakeSubmit.current = wakeUp;
        });
      setPhase('submitting');
      setSubmitError(null);
      for (let failures = 0; ; failures += 1) {
        try {
          const response = await backend.submit(store.snapshot());
          if (mounted.current) finish(response.message);
          return;
        } catch (error) {
          if (!mounted.current || finished.current) return;
          if (isOpenElsewhere(error)) {
            // Another screen writes now: nothing was submitted; the dialog asks what to do.
            store.openedElsewhere();
            setSubmitIssue(null);
            setPhase('answering');
            return;
          }
          if (isSessionEnded(error)) {
            // Tried again once the parent has logged in over the exam.
            setSessionEnded(true);
            setPhase('waiting');
            await pause();
            if (!mounted.current || finished.current) return;
            setPhase('submitting');
            continue;
          }
          // The server briefly away: the answers stay on the device (and in the store's saves)
          // and the submit is tried again, spaced out. After the time is up the server takes the
          // submit as it is, so any transient failure, or a phone clock a little ahead of the
          // server's, is tried again too.
          const early = error instanceof ApiRequestError && error.body.code === 'incomplete';
          if (isRetryable(error) || (auto && (isTransient(error) || early))) {
            if (isRetryable(error)) setSubmitIssue(error instanceof Error ? error.message : messages.serviceUnavailable);
            setPhase('waiting');
            await pause(retryDelayMs(failures, { ...RETRY_BACKOFF, retryAfterSeconds: retryAfterOf(error) }));
            if (!mounted.current || finished.current) return;
            setPhase('submitting');
            continue;
          }
          setSubmitIssue(null);
          if (error instanceof ApiRequestError && error.body.submited) return finish(error.body.message);
          if (error instanceof ApiRequestError && error.body.code === 'incomplete') {
            const ids = (error.body.missing_question_ids as number[] | undefined) ?? [];
            const marks = new Set(questions.flatMap((question, index) => (ids.includes(question.id) ? [index] : [])));
            if (error.body.missing_prediction) marks.add(PREDICTION_INDEX);
            setMissing(marks);
          }
          // The server's message, or the API client's own for a request that got no answer.
          const message = error instanceof Error ? error.message : messages.serverError;
          setSubmitError(message);
          setPhase(auto ? 'failed' : 'answering');
          return;
        }
      }
    },
    [questions, store, finish, backend, mounted],
  );

  return { phase, setPhase, missing, setMissing, submitIssue, submitError, setSubmitError, sessionEnded, setSessionEnded, endSession, wake, finish, finished, submit };
}
