// The practice round's exam screen (/thi-thu/:slug, issue 14): the real exam's screen, timer and
// saving (the same PaperPage and ExamScreen) over the practice API, labelled "Thi thử"; after the
// submit the child goes to the practice result, which shows which answers were right.
import { useMemo } from 'react';
import { practiceMessages } from '../../../../shared/messages';
import { isExamSlug } from '../../../../shared/exam-input';
import { notify } from '../../../components/ui/notices';
import { ApiRequestError, retryDelayMs } from '../../../lib/api-client';
import { useParams } from '../../../lib/router';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { isSessionEnded, isTransient } from '../exam-api';
import { RETRY_BACKOFF, type ExamBackend } from '../exam-backend';
import { PaperPage } from '../paper-page';
import { usePaperLoad, type PaperLoadFailure, type PaperLoadState } from '../use-paper-load';
import { fetchPractice, fetchPracticeTime, practiceResultPath, savePractice, submitPractice } from './practice-api';
import './practice.css';

function practiceBackend(slug: string, writer: string): ExamBackend {
  return {
    save: (payload, { keepalive }) => savePractice(slug, writer, payload, keepalive),
    time: () => fetchPracticeTime(slug),
    submit: (payload) => submitPractice(slug, writer, payload),
    finishedPath: practiceResultPath(slug),
    practice: true,
  };
}

function loadFailure(error: unknown, attempt: number, slug: string): PaperLoadFailure {
  if (isSessionEnded(error)) return { kind: 'login' };
  // Already submitted (or its time ran out): its result is the way on.
  if (error instanceof ApiRequestError && error.body.submited) return { kind: 'leave', path: practiceResultPath(slug) };
  if (isTransient(error)) return { kind: 'error', message: practiceMessages.loadStatusFailed, retryInMs: retryDelayMs(attempt, RETRY_BACKOFF) };
  return { kind: 'error', message: error instanceof ApiRequestError ? error.body.message : practiceMessages.notFound };
}

const notFound: PaperLoadState = { kind: 'error', message: practiceMessages.notFound, retry: false };

export function PracticePage() {
  usePageTitle('Thi thử');
  const params = useParams<{ slug?: string }>();
  const loggedIn = useSession() !== null;
  const slug = isExamSlug(params.slug) ? params.slug : undefined;
  const load = usePaperLoad(
    loggedIn && slug ? slug : undefined,
    () => fetchPractice(slug!),
    (error, attempt) => loadFailure(error, attempt, slug!),
  );
  const { state } = load;
  const backend = useMemo(() => (state.kind === 'ready' && slug ? practiceBackend(slug, state.exam.data.writer) : undefined), [state, slug]);

  return (
    <PaperPage
      load={slug ? load : { ...load, state: notFound }}
      backend={backend}
      title={<span className="exam-practice-badge">Thi thử</span>}
      loadingText={practiceMessages.loading}
      onLoggedIn={() => {
        notify('success', practiceMessages.loading);
        load.loggedIn();
      }}
    />
  );
}
