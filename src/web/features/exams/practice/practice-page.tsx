// The practice round's exam screen (/thi-thu/:slug, issue 14): the real exam's screen, timer and
// saving (ExamScreen) over the practice API, labelled "Thi thử"; after the submit the child goes
// to the practice result, which shows which answers were right.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { practiceMessages } from '../../../../shared/messages';
import { examSlugSchema, type ExamingResponse } from '../../../../shared/schemas/exams';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, retryDelayMs } from '../../../lib/api-client';
import { useNavigate, useParams } from '../../../lib/router';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRequireAuth } from '../../../lib/use-require-auth';
import { isSessionEnded, isTransient } from '../exam-api';
import { ExamLoginDialog } from '../exam-login-dialog';
import { ExamScreen, type ExamBackend } from '../exam-page';
import { LoadError } from '../load-error';
import { fetchPractice, fetchPracticeTime, practiceResultPath, savePractice, submitPractice } from './practice-api';
import './practice.css';

const RETRY_BACKOFF = { baseMs: 2_000, capMs: 30_000 };

/** Difference server clock - phone clock (ms), from one request's send/receive times. */
const clockOffset = (serverTime: string, sentAt: number, receivedAt: number) => Date.parse(serverTime) - (sentAt + receivedAt) / 2;

type LoadState =
  | { kind: 'loading' }
  | { kind: 'ready'; exam: ExamingResponse; offsetMs: number }
  | { kind: 'error'; message: string; retry: boolean };

function practiceBackend(slug: string, writer: string): ExamBackend {
  return {
    save: (payload, { keepalive }) => savePractice(slug, writer, payload, keepalive),
    time: () => fetchPracticeTime(slug),
    submit: (payload) => submitPractice(slug, writer, payload),
    finishedPath: practiceResultPath(slug),
    practice: true,
  };
}

function LoginRequired() {
  useRequireAuth();
  return <div className="container page" />;
}

export function PracticePage() {
  usePageTitle('Thi thử');
  const params = useParams<{ slug?: string }>();
  const session = useSession();
  const loggedIn = session !== null;
  const navigate = useNavigate();
  const slug = examSlugSchema.safeParse(params.slug).success ? params.slug : undefined;
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [loginNeeded, setLoginNeeded] = useState(false);

  useEffect(() => {
    if (!loggedIn) return;
    if (!slug) {
      setState({ kind: 'error', message: practiceMessages.notFound, retry: false });
      return;
    }
    let active = true;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const sentAt = Date.now();
    fetchPractice(slug).then(
      (exam) => active && setState({ kind: 'ready', exam, offsetMs: clockOffset(exam.data.server_time, sentAt, Date.now()) }),
      (error: unknown) => {
        if (!active) return;
        if (isSessionEnded(error)) setLoginNeeded(true);
        else if (error instanceof ApiRequestError && error.body.submited) {
          // Already submitted (or its time ran out): its result is the way on.
          navigate(practiceResultPath(slug), { replace: true });
        } else if (isTransient(error)) {
          setState({ kind: 'error', message: practiceMessages.loadStatusFailed, retry: true });
          retryTimer = setTimeout(() => setAttempt((n) => n + 1), retryDelayMs(attempt, RETRY_BACKOFF));
        } else {
          setState({ kind: 'error', message: error instanceof ApiRequestError ? error.body.message : practiceMessages.notFound, retry: false });
        }
      },
    );
    return () => {
      active = false;
      clearTimeout(retryTimer);
    };
  }, [loggedIn, slug, navigate, attempt]);

  const backend = useMemo(() => (state.kind === 'ready' && slug ? practiceBackend(slug, state.exam.data.writer) : undefined), [state, slug]);
  /** "Tiếp tục ở đây" after the round was opened elsewhere: load it again, this screen writes from then on. */
  const reload = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  if (state.kind === 'ready' && backend)
    return <ExamScreen key={state.exam.data.writer} exam={state.exam} initialOffsetMs={state.offsetMs} backend={backend} onReload={reload} />;
  if (!session) return <LoginRequired />;
  return (
    <>
      <div className="container page exam-page" inert={loginNeeded || undefined}>
        <h1 className="exam-title">
          <span className="exam-practice-badge">Thi thử</span>
        </h1>
        {state.kind === 'error' ? (
          <LoadError message={state.message} canRetry={state.retry} onRetry={() => setAttempt((n) => n + 1)} />
        ) : (
          <p className="muted" aria-busy="true">
            {practiceMessages.loading}
          </p>
        )}
      </div>
      {loginNeeded && (
        <ExamLoginDialog
          phone={session.user.phone}
          onLoggedIn={() => {
            setLoginNeeded(false);
            notify('success', practiceMessages.loading);
            setAttempt((n) => n + 1);
          }}
        />
      )}
    </>
  );
}
