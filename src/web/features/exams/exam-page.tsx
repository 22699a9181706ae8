// The exam screen (/bat-dau-thi/:bookId/:childId/:slugExam, spec sections 2 and 4): one question
// at a time, a navigator, the server's countdown, answers kept on the device and saved to the
// server as they change, the time-up auto-submit and the manual submit. A server that is briefly
// away (network loss, timeout, 502/503/504) loses nothing: saves and the submit are retried with
// jittered back-off while the answers wait on the device. A session ended elsewhere (401) never
// takes the child away from a running exam: the parent logs in again over it and saving carries on.
// The exam opened on another device or tab (409 exam_open_elsewhere, issue 20) stops this screen
// and asks the child to go on here (the server's answers, loaded again) or leave.
// Every message of the screen is in the sticky bar with the timer, so that it is on screen
// wherever the child has scrolled (issue 20).
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, ChevronsDownUp, ChevronsUpDown, CircleCheck, CloudOff, Loader, Timer } from 'lucide-react';
import { examMessages, messages } from '../../../shared/messages';
import { formatCountdown } from '../../../shared/format';
import {
  AUTOSAVE_INTERVAL_MS,
  NOTICE_MS,
  TIME_RESYNC_INTERVAL_MS,
  TIMEOUT_AUTO_SUBMIT_DELAY_MS,
  TOTAL_EXAM_ITEMS,
} from '../../../shared/rules';
import { isExamSlug } from '../../../shared/exam-input';
import type { ExamingResponse, ExamTimeResponse } from '../../../shared/schemas/exams';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { notify } from '../../components/ui/notices';
import { ApiRequestError, isRetryable, retryDelayMs } from '../../lib/api-client';
import { useNavigate, useParams } from '../../lib/router';
import { getSession, useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { useRequireAuth } from '../../lib/use-require-auth';
import { AnswerStore, type KeyValueStorage, type SaveOutcome, type SavePayload, type SaveStatus } from './answer-store';
import { fetchExam, fetchExamTime, isOpenElsewhere, isSessionEnded, isTransient, saveAnswers, submitExam } from './exam-api';
import { ExamNavigator } from './exam-navigator';
import { PredictionView, QuestionView } from './question-view';
import { useReadAloud } from './read-aloud';
import {
  examKeyAction,
  parseBoolean,
  parseTextSize,
  TEXT_SIZES,
  timeNoticeCrossed,
  timeNoticeText,
  useDevicePreference,
  type TextSize,
} from './exam-comfort';
import './exams.css';
import { LoadError } from './load-error';

// The login over a running exam (a session ended elsewhere) brings the form library: not on the
// way to the first question, fetched once the exam is on screen so that it is there when needed.
const loadLoginDialog = () => import('./exam-login-dialog');
const ExamLoginDialog = lazy(async () => ({ default: (await loadLoginDialog()).ExamLoginDialog }));
// The same for the rare "open on another device" dialog.
const loadElsewhereDialog = () => import('./exam-elsewhere-dialog');
const ExamElsewhereDialog = lazy(async () => ({ default: (await loadElsewhereDialog()).ExamElsewhereDialog }));

/** Where the child goes on leaving an exam opened elsewhere: the join page (the practice offer is there too). */
const LEAVE_PATH = '/du-thi';
/** The save indicator when another screen writes the exam (issue 20). */
const STOPPED_TEXT = 'Đã dừng lưu';
/** The writer conflict in the messages by the timer (the dialog says the rest). */
const ELSEWHERE_TEXT = 'Bài thi đang được mở ở nơi khác: màn hình này đã dừng lưu bài.';
/** How long the failed read-aloud voice is said by the timer (ms): long enough to read it twice. */
const VOICE_NOTICE_MS = 15_000;

/** Back-off of a failed load or submit (ms): a random wait up to base * 2^failures, at most cap. */
const RETRY_BACKOFF = { baseMs: 2_000, capMs: 30_000 };
/** The time turns to the accent colour for the last 2 minutes. */
const TIME_WARNING_MS = 120_000;
const PREDICTION_INDEX = TOTAL_EXAM_ITEMS - 1;
/** Room between the sticky timer bar and the question brought into view (px). */
const QUESTION_GAP_PX = 8;

const positiveInt = (value: string | undefined) => (value && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : undefined);
const retryAfterOf = (error: unknown) => (error instanceof ApiRequestError ? error.retryAfterSeconds : undefined);

function deviceStorage(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Difference server clock - phone clock (ms), from one request's send/receive times. */
const clockOffset = (serverTime: string, sentAt: number, receivedAt: number) => Date.parse(serverTime) - (sentAt + receivedAt) / 2;

const certificatePath = (childId: number) => `/giay-chung-nhan/${childId}`;

type LoadState =
  | { kind: 'loading' }
  | { kind: 'ready'; exam: ExamingResponse; offsetMs: number }
  | { kind: 'error'; message: string; retry: boolean };

/** Without a session when the page opens: the site's usual notice and redirect to /dang-nhap. */
function LoginRequired() {
  useRequireAuth();
  return <div className="container page" />;
}

export function ExamPage() {
  usePageTitle('Làm bài thi');
  const params = useParams<{ bookId?: string; childId?: string; slugExam?: string }>();
  const session = useSession();
  const loggedIn = session !== null;
  const navigate = useNavigate();
  const bookId = positiveInt(params.bookId);
  const childId = positiveInt(params.childId);
  // The server's own slug rule: a link that can never name an exam is not sent.
  const slug = isExamSlug(params.slugExam) ? params.slugExam : undefined;
  const valid = bookId !== undefined && childId !== undefined && slug !== undefined;
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  /** The exam was asked for with a session the server has ended: log in again over the page. */
  const [loginNeeded, setLoginNeeded] = useState(false);

  // A malformed link is "not found" whoever opens it: that one message, then the 404 page.
  useEffect(() => {
    if (valid) return;
    notify('error', examMessages.examNotFound);
    const timer = setTimeout(() => navigate('/404', { replace: true }), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [valid, navigate]);

  useEffect(() => {
    if (!loggedIn || !valid) return;
    let active = true;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let leaveTimer: ReturnType<typeof setTimeout> | undefined;
    const sentAt = Date.now();
    fetchExam(bookId, childId, slug).then(
      (exam) => active && setState({ kind: 'ready', exam, offsetMs: clockOffset(exam.data.server_time, sentAt, Date.now()) }),
      (error: unknown) => {
        if (!active) return;
        if (isSessionEnded(error)) {
          setLoginNeeded(true);
        } else if (error instanceof ApiRequestError && error.body.submited) {
          notify('info', error.body.message);
          navigate(certificatePath(childId), { replace: true });
        } else if (error instanceof ApiRequestError && (error.status === 404 || error.body.not_found)) {
          notify('error', error.body.message);
          leaveTimer = setTimeout(() => navigate('/404', { replace: true }), NOTICE_MS);
        } else if (isTransient(error)) {
          setState({ kind: 'error', message: examMessages.loadFailed, retry: true });
          const delay = retryDelayMs(attempt, { ...RETRY_BACKOFF, retryAfterSeconds: retryAfterOf(error) });
          retryTimer = setTimeout(() => setAttempt((n) => n + 1), delay);
        } else {
          // A refusal (another account's contestant, a role that cannot take exams): said once, on the page.
          setState({ kind: 'error', message: error instanceof ApiRequestError ? error.body.message : examMessages.loadFailed, retry: false });
        }
      },
    );
    return () => {
      active = false;
      clearTimeout(retryTimer);
      clearTimeout(leaveTimer);
    };
  }, [loggedIn, valid, bookId, childId, slug, navigate, attempt]);

  // One backend per loaded exam: the screen's timers depend on it.
  const backend = useMemo(() => (state.kind === 'ready' && childId !== undefined ? contestBackend(state.exam, childId) : undefined), [state, childId]);
  /** "Tiếp tục ở đây" after the exam was opened elsewhere: load it again, this screen writes from then on. */
  const reload = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  if (!valid) return <div className="container page" />;
  // A running exam stays on screen even if the session goes: the screen asks for a login itself.
  if (state.kind === 'ready' && backend)
    return <ExamScreen key={state.exam.data.writer} exam={state.exam} initialOffsetMs={state.offsetMs} backend={backend} onReload={reload} />;
  if (!session) return <LoginRequired />;
  return (
    <>
      <div className="container page exam-page" inert={loginNeeded || undefined}>
        <h1 className="exam-title">Làm bài thi</h1>
        {state.kind === 'error' ? (
          <LoadError message={state.message} canRetry={state.retry} onRetry={() => setAttempt((n) => n + 1)} />
        ) : (
          <p className="muted" aria-busy="true">
            Đang tải bài thi…
          </p>
        )}
      </div>
      {loginNeeded && (
        <Suspense fallback={null}>
          <ExamLoginDialog
          phone={session.user.phone}
          onLoggedIn={() => {
            setLoginNeeded(false);
            setAttempt((n) => n + 1);
          }}
        />
        </Suspense>
      )}
    </>
  );
}

/**
 * What the exam screen asks of the server. The contest's exam and the practice round ("Thi thử")
 * share the screen, its timer and its saving; each brings its own calls and where the child goes
 * once the exam is submitted.
 */
export interface ExamBackend {
  save: (payload: SavePayload, options: { keepalive: boolean }) => Promise<SaveOutcome>;
  time: () => Promise<ExamTimeResponse>;
  submit: (payload: SavePayload) => Promise<{ message: string }>;
  /** Where the screen goes after the submit (the certificate page, the practice result). */
  finishedPath: string;
  /** A practice round: labelled as such on the screen. */
  practice?: boolean;
}

function contestBackend(exam: ExamingResponse, childId: number): ExamBackend {
  const { id, slug, writer } = exam.data;
  return {
    save: (payload, { keepalive }) => saveAnswers(id, slug, writer, payload, keepalive),
    time: () => fetchExamTime(id),
    submit: (payload) => submitExam(id, slug, writer, payload),
    finishedPath: certificatePath(childId),
  };
}

/**
 * waiting: a submit failed because the server is briefly away; it is tried again after a pause
 * (or at once when the child presses Nộp bài or the connection returns).
 * failed: the time is up and the automatic submit was refused; the child may press Nộp bài again.
 */
type Phase = 'answering' | 'timeup' | 'submitting' | 'waiting' | 'failed' | 'done';

export function ExamScreen({
  exam,
  initialOffsetMs,
  backend,
  onReload,
}: {
  exam: ExamingResponse;
  initialOffsetMs: number;
  backend: ExamBackend;
  /** Loads the exam again (a new writer handle): "Tiếp tục ở đây" once it was opened elsewhere. */
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const session = useSession();
  /** The parent's phone, for the login dialog even if the session is gone by then. */
  const [parentPhone] = useState(() => getSession()?.user.phone);
  /** A time check or a submit met a 401 (a save's 401 is store.loginNeeded). */
  const [sessionEnded, setSessionEnded] = useState(false);
  const data = exam.data;
  const [store] = useState(
    () =>
      new AnswerStore({
        slug: data.slug,
        storage: deviceStorage(),
        send: backend.save,
      }),
  );
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const offsetMs = useRef(initialOffsetMs);
  const [endMs, setEndMs] = useState(() => Date.parse(data.end_time));
  const [now, setNow] = useState(() => Date.now() + initialOffsetMs);
  const [phase, setPhase] = useState<Phase>('answering');
  const [missing, setMissing] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  /** Submit pressed with questions left: their positions (0-based), listed in a dialog. */
  const [unanswered, setUnanswered] = useState<number[] | null>(null);
  const readAloud = useReadAloud();
  // The failed voice is said once, then leaves the bar to the exam's own messages.
  const [voiceNoticeSeen, setVoiceNoticeSeen] = useState(false);
  useEffect(() => {
    if (!readAloud.voiceFailed) return;
    const timer = setTimeout(() => setVoiceNoticeSeen(true), VOICE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [readAloud.voiceFailed]);
  const [textSize, setTextSize] = useDevicePreference<TextSize>('exam-text-size', 1, parseTextSize);
  const [timerFolded, setTimerFolded] = useDevicePreference<boolean>('exam-timer-folded', false, parseBoolean);
  /** The last threshold crossed (5 or 1 minutes left): its calm notice is shown and announced. */
  const [timeNotice, setTimeNotice] = useState<number | null>(null);
  const previousRemaining = useRef(Number.POSITIVE_INFINITY);
  /** Why the last submit did not go through while it is being retried (the server's or the client's text). */
  const [submitIssue, setSubmitIssue] = useState<string | null>(null);
  /** Why the last submit was refused (kept by the timer until the next submit). */
  const [submitError, setSubmitError] = useState<string | null>(null);
  /** Ends the pause before the next submit attempt early. */
  const wakeSubmit = useRef<(() => void) | null>(null);
  const finished = useRef(false);
  const mounted = useRef(true);
  const questionRef = useRef<HTMLDivElement>(null);
  const topbarRef = useRef<HTMLDivElement>(null);
  /** Set by a move to another item: the next render brings it into view and focuses its heading. */
  const moved = useRef(false);

  useEffect(() => {
    const prefetch = setTimeout(() => {
      void loadLoginDialog().catch(() => undefined);
      void loadElsewhereDialog().catch(() => undefined);
    }, 2_000);
    return () => clearTimeout(prefetch);
  }, []);

  useEffect(() => {
    mounted.current = true;
    const unsubscribe = store.subscribe(rerender);
    store.restore({ answers: data.data_answers, prediction: data.prediction, saveSeq: data.save_seq });
    return () => {
      mounted.current = false;
      unsubscribe();
      store.dispose();
    };
  }, [store, data]);

  const finish = useCallback(
    (message: string) => {
      // Once: a re-sync or a refused save may learn of the submit while a submit is retried.
      if (finished.current) return;
      finished.current = true;
      store.close();
      setSubmitIssue(null);
      setPhase('done');
      notify('success', message);
      setTimeout(() => mounted.current && navigate(backend.finishedPath), NOTICE_MS);
    },
    [store, navigate, backend.finishedPath],
  );

  /** The server's clock and deadline (the organiser may have extended it); the new end, or undefined when unknown. */
  const resync = useCallback(async (): Promise<number | undefined> => {
    const sentAt = Date.now();
    try {
      const time = await backend.time();
      offsetMs.current = clockOffset(time.data.server_time, sentAt, Date.now());
      const end = Date.parse(time.data.end_time);
      setEndMs(end);
      if (time.data.status === 1 && mounted.current) finish(examMessages.alreadySubmitted);
      return time.data.status === 1 ? undefined : end;
    } catch (error) {
      if (isSessionEnded(error) && mounted.current) setSessionEnded(true);
      // Otherwise the next re-sync (or the local clock, corrected at the last one) carries on.
      return undefined;
    }
  }, [backend, finish]);

  const submit = useCallback(
    async (auto: boolean) => {
      /** Waits `ms` before the next attempt (without `ms`, until woken), unless woken earlier
       * (Nộp bài pressed, back online, the parent logged in again). */
      const pause = (ms?: number) =>
        new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            wakeSubmit.current = null;
            resolve();
          };
          const timer = ms === undefined ? undefined : setTimeout(wake, ms);
          wakeSubmit.current = wake;
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
            const marks = new Set(data.data_questions.flatMap((question, index) => (ids.includes(question.id) ? [index] : [])));
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
    [data, store, finish, backend],
  );

  // The countdown: the server's end time on the server's clock (phone clock + offset).
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now() + offsetMs.current), 250);
    return () => clearInterval(tick);
  }, []);
  const remainingMs = endMs - now;

  // At the deadline, one last look at the server's: the organiser may have extended the attempt
  // since the last re-sync (which runs only every minute). Without an answer, the time is up.
  const checkingEnd = useRef(false);
  const phaseNow = useRef(phase);
  phaseNow.current = phase;
  useEffect(() => {
    const crossed = timeNoticeCrossed(previousRemaining.current, remainingMs);
    previousRemaining.current = remainingMs;
    if (crossed) setTimeNotice(crossed);
  }, [remainingMs]);

  // A screen stopped by another one leaves the end to that one (and to the server's sweep).
  const elsewhere = store.elsewhere;
  useEffect(() => {
    if (phase !== 'answering' || remainingMs > 0 || checkingEnd.current || elsewhere) return;
    checkingEnd.current = true;
    void resync().then((end) => {
      checkingEnd.current = false;
      if (!mounted.current) return;
      if (end !== undefined && end > Date.now() + offsetMs.current) return;
      // Unless something else ended the answering meanwhile (a submit, a refused save).
      if (phaseNow.current !== 'answering' || finished.current) return;
      setPhase('timeup');
      notify('error', messages.timeUp);
    });
  }, [phase, remainingMs, resync, elsewhere]);

  useEffect(() => {
    if (phase !== 'timeup') return;
    const timer = setTimeout(() => void submit(true), TIMEOUT_AUTO_SUBMIT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, submit]);

  // Saving and time re-sync; pending answers go first when the connection returns.
  useEffect(() => {
    const autosave = setInterval(() => void store.flush(), AUTOSAVE_INTERVAL_MS);
    const sync = setInterval(() => void resync(), TIME_RESYNC_INTERVAL_MS);
    const online = () => {
      wakeSubmit.current?.();
      void store.retryNow().then(resync);
    };
    const hidden = () => document.visibilityState === 'hidden' && void store.flush({ keepalive: true });
    const leaving = () => void store.flush({ keepalive: true });
    window.addEventListener('online', online);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      clearInterval(autosave);
      clearInterval(sync);
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
    };
  }, [store, resync]);

  // A save the server refused for good: the exam ended elsewhere, or its time is over.
  const refusal = store.refusal;
  useEffect(() => {
    if (!refusal || phase === 'done' || phase === 'submitting' || phase === 'waiting') return;
    if (refusal.code === 'exam_submitted') finish(refusal.message);
    else if (refusal.code === 'time_up' && phase === 'answering') setPhase('timeup');
    else if (refusal.code === 'not_found') {
      notify('error', refusal.message);
      navigate('/404', { replace: true });
    }
  }, [refusal, phase, finish, navigate]);

  const locked = phase !== 'answering';
  const questions = data.data_questions;
  const items = Array.from({ length: TOTAL_EXAM_ITEMS }, (_, index) => ({
    answered: index === PREDICTION_INDEX ? store.prediction !== undefined : store.answers[questions[index]?.id ?? -1] !== undefined,
    missing: missing.has(index),
  }));
  // Fewer questions than 20 in the bank: the prediction is still the last item.
  const visibleItems = [...items.slice(0, questions.length), items[PREDICTION_INDEX]!];
  const lastIndex = visibleItems.length - 1;
  const current = Math.min(store.current, lastIndex);

  const jump = (index: number) => {
    moved.current = true;
    store.goTo(index);
  };

  // After a move: the question's start just below the sticky timer bar (it would hide under it),
  // and focus on its heading for screen readers, without a scroll of its own.
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

  const askLogin = phase !== 'done' && (sessionEnded || store.loginNeeded || session === null);
  const askWhere = phase !== 'done' && !askLogin && elsewhere !== null;
  // The choice comes before anything else: a submit's confirmation open at that moment goes.
  useEffect(() => {
    if (!elsewhere) return;
    setConfirming(false);
    setUnanswered(null);
  }, [elsewhere]);
  const loggedInAgain = () => {
    setSessionEnded(false);
    wakeSubmit.current?.();
    void store.retryNow().then(resync);
  };

  const requestSubmit = () => {
    setSubmitError(null);
    const missingItems = new Set(visibleItems.flatMap((item, index) => (item.answered ? [] : [index === lastIndex ? PREDICTION_INDEX : index])));
    if (missingItems.size > 0) {
      setMissing(missingItems);
      setUnanswered(visibleItems.flatMap((item, index) => (item.answered ? [] : [index])));
      return;
    }
    setMissing(new Set());
    setConfirming(true);
  };

  // A move to another item ends the reading; the clips of this item and the next are fetched
  // ahead, so that a weak network does not cut them.
  const { stop: stopReading, prefetch: prefetchClips } = readAloud;
  useEffect(() => {
    stopReading();
    prefetchClips([current, current + 1].flatMap((index) => {
      const question = questions[index];
      return question ? [question.audio, ...question.answers.map((answer) => answer.audio)] : [];
    }));
  }, [current, questions, stopReading, prefetchClips]);

  // Keyboard: 1-4 or A-D choose, the arrows or J/K move, Enter on the last item asks to submit.
  const onKey = useRef<(event: KeyboardEvent) => void>(() => undefined);
  onKey.current = (event) => {
    if (askLogin || askWhere || confirming || unanswered) return;
    const question = current === lastIndex ? undefined : questions[current];
    const action = examKeyAction(event, event.target instanceof HTMLElement ? event.target : null, {
      answers: question?.answers.length ?? 0,
      onLastItem: current === lastIndex,
    });
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'move') {
      const next = current + action.by;
      if (next >= 0 && next <= lastIndex) jump(next);
    } else if (action.kind === 'choose') {
      if (question && !locked) store.choose(question.id, question.answers[action.index]!.id);
    } else if (phase === 'answering') {
      requestSubmit();
    }
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const warning = remainingMs <= TIME_WARNING_MS;
  const isPrediction = current === lastIndex;

  const timeText = formatCountdown(Math.ceil(Math.max(0, remainingMs) / 1000));
  const unansweredCount = visibleItems.filter((item) => !item.answered).length;
  const timeUpShown = phase === 'timeup' || phase === 'failed' || ((phase === 'submitting' || phase === 'waiting') && remainingMs <= 0);
  /** What the screen has to say, most pressing first: all of it by the timer, never off screen. */
  const alerts = [
    elsewhere && ELSEWHERE_TEXT,
    timeUpShown && `${messages.timeUp}. ${phase === 'failed' ? '' : examMessages.autoSubmitting}`.trim(),
    submitIssue !== null && (phase === 'submitting' || phase === 'waiting') && `${examMessages.submitFailedTitle}. ${submitIssue}`,
    submitError !== null && phase !== 'done' && `${examMessages.submitFailedTitle}. ${submitError}`,
    store.refusal && store.refusal.code !== 'time_up' && store.refusal.code !== 'exam_submitted' && store.refusal.message,
    readAloud.voiceFailed && !voiceNoticeSeen && examMessages.voiceFailed,
  ].filter((text): text is string => typeof text === 'string' && text !== '');

  return (
    <>
      <div className="container page exam-page" data-text-size={textSize} inert={askLogin || askWhere || undefined}>
        <div className="exam-head">
          <h1 className="exam-title">
            <span className="exam-title-book">
              {backend.practice && <span className="exam-practice-badge">Thi thử</span>}
              {data.book.name}
            </span>
            <span className="exam-title-child">{exam.children.fullname}</span>
          </h1>
          <TextSizeControl value={textSize} onChange={setTextSize} />
        </div>
        <div className="exam-topbar" ref={topbarRef} data-folded={timerFolded || undefined}>
          <div className="exam-topbar-row">
            <p className="exam-time" data-warning={warning || undefined}>
              <Timer aria-hidden="true" size={20} />
              <span className={timerFolded ? 'visually-hidden' : undefined}>
                <span className="visually-hidden">Thời gian còn lại: </span>
                <time>{timeText}</time>
              </span>
              {timerFolded && <TimeBar remainingMs={remainingMs} totalMs={data.duration_seconds * 1000} />}
            </p>
            <SaveIndicator status={store.status} />
            <button
              type="button"
              className="exam-fold"
              aria-pressed={timerFolded}
              aria-label={timerFolded ? 'Hiện đồng hồ' : 'Thu gọn đồng hồ'}
              onClick={() => setTimerFolded(!timerFolded)}
            >
              {timerFolded ? <ChevronsUpDown aria-hidden="true" size={20} /> : <ChevronsDownUp aria-hidden="true" size={20} />}
            </button>
          </div>
          {/* The time notices: spoken when one is crossed (5 and 1 minutes left), never every second. */}
          <p className="exam-message exam-time-notice" role="status" aria-live="polite">
            {timeNotice !== null && phase === 'answering' && !elsewhere ? timeNoticeText(timeNotice, unansweredCount) : ''}
          </p>
          {alerts.map((text) => (
            <p key={text} className="exam-message exam-alert" role="alert">
              {text}
            </p>
          ))}
        </div>

        <div className="card exam-card" ref={questionRef}>
          {isPrediction ? (
            <PredictionView
              number={lastIndex + 1}
              text={store.predictionText}
              disabled={locked}
              onChange={(text) => store.setPrediction(text)}
              onEnter={() => phase === 'answering' && requestSubmit()}
            />
          ) : (
            <QuestionView
              key={questions[current]!.id}
              number={current + 1}
              question={questions[current]!}
              chosen={store.answers[questions[current]!.id]}
              disabled={locked}
              onChoose={(answerId) => store.choose(questions[current]!.id, answerId)}
              readAloud={readAloud}
            />
          )}
        </div>

        <div className="exam-steps">
          <Button variant="outline" onClick={() => jump(current - 1)} disabled={current === 0}>
            <ChevronLeft aria-hidden="true" size={20} /> Câu trước
          </Button>
          <span className="exam-step-count" aria-hidden="true">
            {current + 1}/{visibleItems.length}
          </span>
          <Button variant="outline" onClick={() => jump(current + 1)} disabled={current === lastIndex}>
            Câu sau <ChevronRight aria-hidden="true" size={20} />
          </Button>
        </div>

        <ExamNavigator items={visibleItems} current={current} onJump={jump} />

        {backend.practice && <p className="exam-practice-note">{examMessages.practiceNote}</p>}

        <Button
          variant="accent"
          block
          className="exam-submit"
          onClick={phase === 'failed' ? () => void submit(true) : phase === 'waiting' ? () => wakeSubmit.current?.() : requestSubmit}
          disabled={phase !== 'answering' && phase !== 'failed' && phase !== 'waiting'}
        >
          {phase === 'submitting' ? examMessages.autoSubmitting : 'Nộp bài'}
        </Button>

        {unanswered && (
          <Modal
            title={examMessages.unansweredTitle(unanswered.length)}
            onClose={() => setUnanswered(null)}
            actions={
              <Button variant="outline" onClick={() => setUnanswered(null)}>
                Làm tiếp
              </Button>
            }
          >
            <p>{messages.answerAllQuestions}.</p>
            <ul className="exam-unanswered">
              {unanswered.map((index) => (
                <li key={index}>
                  <button
                    type="button"
                    className="exam-unanswered-link"
                    onClick={() => {
                      setUnanswered(null);
                      jump(index);
                    }}
                  >
                    Câu {index + 1}
                  </button>
                </li>
              ))}
            </ul>
          </Modal>
        )}

        {confirming && (
          <Modal
            title={examMessages.confirmSubmitTitle}
            onClose={() => setConfirming(false)}
            actions={
              <>
                <Button variant="outline" onClick={() => setConfirming(false)}>
                  Làm tiếp
                </Button>
                <Button
                  variant="accent"
                  onClick={() => {
                    setConfirming(false);
                    void submit(false);
                  }}
                >
                  Nộp bài
                </Button>
              </>
            }
          >
            <p>{examMessages.confirmSubmitText}</p>
          </Modal>
        )}
      </div>
      {askLogin && (
        <Suspense fallback={null}>
          <ExamLoginDialog phone={session?.user.phone ?? parentPhone} timeLeft={timeText} onLoggedIn={loggedInAgain} />
        </Suspense>
      )}
      {askWhere && (
        <Suspense fallback={null}>
          <ExamElsewhereDialog unsaved={elsewhere.unsaved} onStay={onReload} onLeave={() => navigate(LEAVE_PATH)} />
        </Suspense>
      )}
    </>
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

/** Three text sizes for the question and answers, kept on the device. */
function TextSizeControl({ value, onChange }: { value: TextSize; onChange: (size: TextSize) => void }) {
  return (
    // Toggle buttons (aria-pressed), each its own tab stop: a radio group would promise arrow keys.
    <div className="exam-text-size" role="group" aria-label="Cỡ chữ">
      <span className="exam-text-size-label" aria-hidden="true">
        Cỡ chữ
      </span>
      {TEXT_SIZES.map((size) => (
        <button
          key={size.value}
          type="button"
          aria-pressed={value === size.value}
          aria-label={size.label}
          className="exam-text-size-option"
          data-size={size.value}
          onClick={() => onChange(size.value)}
        >
          A
        </button>
      ))}
    </div>
  );
}
