// Loading a paper for the exam screen, the contest's exam or a practice round alike: one load per
// address and attempt, the server's clock offset measured with it, a failure tried again after the
// pause the page asks for, an ended session answered by a login over the page. What each failure
// means (a message, where the child goes) is the page's rule. The paper loaded is kept on the
// device (kept-paper.ts): a load that gets no answer at all (no network) shows it from there.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExamingResponse } from '../../../shared/schemas/exams';
import { notify, type NoticeKind } from '../../components/ui/notices';
import { ApiRequestError, isRetryable } from '../../lib/api-client';
import { useNavigate } from '../../lib/router';
import { getSession } from '../../lib/session';
import { clockOffset } from './exam-backend';
import { forgetPaper, keepPaper, keptPaper } from './kept-paper';

export type PaperLoadState =
  | { kind: 'loading' }
  /** fromDevice: the paper kept on the device, shown without the server (no network). */
  | { kind: 'ready'; exam: ExamingResponse; offsetMs: number; fromDevice?: boolean }
  | { kind: 'error'; message: string; retry: boolean };

/**
 * What a failed load comes to. login: the session ended on the server, log in over the page.
 * error: said on the page, loaded again after `retryInMs` when given ('Thử lại' then too).
 * leave: the child is taken to `path` (after `afterMs`, with a notice when given).
 */
export type PaperLoadFailure =
  | { kind: 'login' }
  | { kind: 'error'; message: string; retryInMs?: number }
  | { kind: 'leave'; path: string; afterMs?: number; notice?: { kind: NoticeKind; message: string } };

/**
 * `paperKey`: what names the paper (undefined: nothing to load, no session or a malformed
 * address); a new key loads again. `failure` reads the error and the number of the attempt.
 */
export function usePaperLoad(
  paperKey: string | undefined,
  fetchPaper: () => Promise<ExamingResponse>,
  failure: (error: unknown, attempt: number) => PaperLoadFailure,
) {
  const navigate = useNavigate();
  const [state, setState] = useState<PaperLoadState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [loginNeeded, setLoginNeeded] = useState(false);
  // The page's functions as of its last render: a new closure is not a new paper.
  const page = useRef({ fetchPaper, failure });
  page.current = { fetchPaper, failure };

  useEffect(() => {
    if (paperKey === undefined) return;
    let active = true;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const sentAt = Date.now();
    const userId = getSession()?.user.id;
    page.current.fetchPaper().then(
      (exam) => {
        if (!active) return;
        const offsetMs = clockOffset(exam.data.server_time, sentAt, Date.now());
        if (userId !== undefined) keepPaper(paperKey, userId, exam, offsetMs);
        setState({ kind: 'ready', exam, offsetMs });
      },
      (error: unknown) => {
        if (!active) return;
        // No answer at all (no network, or none in time): the paper as the device kept it.
        const kept = userId !== undefined && isRetryable(error) && !(error instanceof ApiRequestError) ? keptPaper(paperKey, userId) : undefined;
        if (kept) return setState({ kind: 'ready', ...kept, fromDevice: true });
        const failed = page.current.failure(error, attempt);
        if (failed.kind === 'login') {
          setLoginNeeded(true);
        } else if (failed.kind === 'error') {
          setState({ kind: 'error', message: failed.message, retry: failed.retryInMs !== undefined });
          if (failed.retryInMs !== undefined) timers.push(setTimeout(() => setAttempt((n) => n + 1), failed.retryInMs));
        } else {
          forgetPaper({ paperKey });
          if (failed.notice) notify(failed.notice.kind, failed.notice.message);
          const leave = () => navigate(failed.path, { replace: true });
          if (failed.afterMs === undefined) leave();
          else timers.push(setTimeout(leave, failed.afterMs));
        }
      },
    );
    return () => {
      active = false;
      timers.forEach(clearTimeout);
    };
  }, [paperKey, navigate, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  /** "Tiếp tục ở đây" after the paper was opened elsewhere: load it again, this screen writes from then on. */
  const reload = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  const loggedIn = useCallback(() => {
    setLoginNeeded(false);
    setAttempt((n) => n + 1);
  }, []);
  return { state, loginNeeded, retry, reload, loggedIn };
}
