// How a paper ends other than by Nộp bài: at the deadline, one last look at the server's (the
// organiser may have extended the attempt since the last re-sync, which runs only every minute);
// without an answer the time is up and the paper is submitted automatically after a short delay.
// A save the server refused for good ends it too: submitted elsewhere, time up, or gone.
import { useEffect, useRef, type RefObject } from 'react';
import { messages } from '../../../shared/messages';
import { TIMEOUT_AUTO_SUBMIT_DELAY_MS } from '../../../shared/rules';
import { notify } from '../../components/ui/notices';
import { useNavigate } from '../../lib/router';
import type { AnswerStore } from './answer-store';
import { forgetPaper } from './kept-paper';
import type { Phase } from './use-exam-submit';

export function useExamEnd({
  store,
  phase,
  setPhase,
  remainingMs,
  resync,
  serverNow,
  submit,
  finish,
  finished,
  mounted,
}: {
  store: AnswerStore;
  phase: Phase;
  setPhase: (phase: Phase) => void;
  remainingMs: number;
  resync: () => Promise<number | undefined>;
  serverNow: () => number;
  submit: (auto: boolean) => Promise<void>;
  finish: (message: string) => void;
  finished: RefObject<boolean>;
  mounted: RefObject<boolean>;
}) {
  const navigate = useNavigate();
  const checkingEnd = useRef(false);
  const phaseNow = useRef(phase);
  phaseNow.current = phase;

  // A screen stopped by another one leaves the end to that one (and to the server's sweep).
  const elsewhere = store.elsewhere;
  useEffect(() => {
    if (phase !== 'answering' || remainingMs > 0 || checkingEnd.current || elsewhere) return;
    checkingEnd.current = true;
    void resync().then((end) => {
      checkingEnd.current = false;
      if (!mounted.current) return;
      if (end !== undefined && end > serverNow()) return;
      // Unless something else ended the answering meanwhile (a submit, a refused save).
      if (phaseNow.current !== 'answering' || finished.current) return;
      setPhase('timeup');
      notify('error', messages.timeUp);
    });
  }, [phase, remainingMs, resync, elsewhere, serverNow, setPhase, finished, mounted]);

  useEffect(() => {
    if (phase !== 'timeup') return;
    const timer = setTimeout(() => void submit(true), TIMEOUT_AUTO_SUBMIT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, submit]);

  const refusal = store.refusal;
  useEffect(() => {
    if (!refusal || phase === 'done' || phase === 'submitting' || phase === 'waiting') return;
    if (refusal.code === 'exam_submitted') finish(refusal.message);
    else if (refusal.code === 'time_up' && phase === 'answering') setPhase('timeup');
    else if (refusal.code === 'not_found') {
      forgetPaper({ slug: store.slug });
      notify('error', refusal.message);
      navigate('/404', { replace: true });
    }
  }, [refusal, phase, finish, navigate, setPhase, store]);
}
