// The exam screen's address (/bat-dau-thi/:bookId/:childId/:slugExam, spec sections 2 and 4):
// loads the contest's exam and shows it on the exam screen (exam-screen.tsx), with the contest's
// calls and rules: a submitted exam leads to the certificate page, one that does not exist says
// so and goes to 404, a server briefly away is tried again (its Retry-After honoured).
import { useEffect, useMemo } from 'react';
import { examMessages } from '../../../shared/messages';
import { NOTICE_MS } from '../../../shared/rules';
import { isExamSlug } from '../../../shared/exam-input';
import type { ExamingResponse } from '../../../shared/schemas/exams';
import { notify } from '../../components/ui/notices';
import { ApiRequestError, retryDelayMs } from '../../lib/api-client';
import { useNavigate, useParams } from '../../lib/router';
import { useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { RETRY_BACKOFF, retryAfterOf, type ExamBackend } from './exam-backend';
import { fetchExam, fetchExamTime, isSessionEnded, isTransient, saveAnswers, submitExam } from './exam-api';
import './exams.css';
import { PaperPage } from './paper-page';
import { usePaperLoad, type PaperLoadFailure } from './use-paper-load';

const positiveInt = (value: string | undefined) => (value && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : undefined);

const certificatePath = (childId: number) => `/giay-chung-nhan/${childId}`;

function contestBackend(exam: ExamingResponse, childId: number): ExamBackend {
  const { id, slug, writer } = exam.data;
  return {
    save: (payload, { keepalive }) => saveAnswers(id, slug, writer, payload, keepalive),
    time: () => fetchExamTime(id),
    submit: (payload) => submitExam(id, slug, writer, payload),
    finishedPath: certificatePath(childId),
  };
}

function loadFailure(error: unknown, attempt: number, childId: number): PaperLoadFailure {
  if (isSessionEnded(error)) return { kind: 'login' };
  if (error instanceof ApiRequestError && error.body.submited)
    return { kind: 'leave', path: certificatePath(childId), notice: { kind: 'info', message: error.body.message } };
  if (error instanceof ApiRequestError && (error.status === 404 || error.body.not_found))
    return { kind: 'leave', path: '/404', afterMs: NOTICE_MS, notice: { kind: 'error', message: error.body.message } };
  if (isTransient(error))
    return { kind: 'error', message: examMessages.loadFailed, retryInMs: retryDelayMs(attempt, { ...RETRY_BACKOFF, retryAfterSeconds: retryAfterOf(error) }) };
  // A refusal (another account's contestant, a role that cannot take exams): said once, on the page.
  return { kind: 'error', message: error instanceof ApiRequestError ? error.body.message : examMessages.loadFailed };
}

export function ExamPage() {
  usePageTitle('Làm bài thi');
  const params = useParams<{ bookId?: string; childId?: string; slugExam?: string }>();
  const loggedIn = useSession() !== null;
  const navigate = useNavigate();
  const bookId = positiveInt(params.bookId);
  const childId = positiveInt(params.childId);
  // The server's own slug rule: a link that can never name an exam is not sent.
  const slug = isExamSlug(params.slugExam) ? params.slugExam : undefined;
  const valid = bookId !== undefined && childId !== undefined && slug !== undefined;
  const load = usePaperLoad(
    loggedIn && valid ? `${bookId}/${childId}/${slug}` : undefined,
    () => fetchExam(bookId!, childId!, slug!),
    (error, attempt) => loadFailure(error, attempt, childId!),
  );

  // A malformed link is "not found" whoever opens it: that one message, then the 404 page.
  useEffect(() => {
    if (valid) return;
    notify('error', examMessages.examNotFound);
    const timer = setTimeout(() => navigate('/404', { replace: true }), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [valid, navigate]);

  // One backend per loaded exam: the screen's timers depend on it.
  const { state } = load;
  const backend = useMemo(() => (state.kind === 'ready' && childId !== undefined ? contestBackend(state.exam, childId) : undefined), [state, childId]);

  if (!valid) return <div className="container page" />;
  return <PaperPage load={load} backend={backend} title="Làm bài thi" loadingText="Đang tải bài thi…" />;
}
