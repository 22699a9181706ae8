// The exam screen (spec sections 2 and 4), the contest's exam's and the practice round's: one
// question at a time, a navigator, the server's countdown (use-exam-clock), answers kept on the
// device and saved as they change (use-autosave), the time-up auto-submit and the manual submit
// (use-exam-end, use-exam-submit), read-aloud (use-exam-read-aloud). A server that is briefly away
// loses nothing: saves and the submit are retried while the answers wait on the device. A session
// ended elsewhere (401) never takes the child away from a running exam: the parent logs in again
// over it and saving carries on. The exam opened on another device or tab (409
// exam_open_elsewhere, issue 20) stops this screen and asks the child to go on here (the server's
// answers, loaded again) or leave.
import { Suspense, useEffect, useState } from 'react';
import { examMessages } from '../../../shared/messages';
import { formatCountdown } from '../../../shared/format';
import type { ExamingResponse } from '../../../shared/schemas/exams';
import { Button } from '../../components/ui/button';
import { useNavigate } from '../../lib/router';
import { getSession, useSession } from '../../lib/session';
import type { ExamBackend } from './exam-backend';
import { parseBoolean, parseTextSize, timeNoticeText, useDevicePreference, type TextSize } from './exam-comfort';
import { ExamHead } from './exam-head';
import { ExamNavigator, ExamSteps, paperItems } from './exam-navigator';
import { ConfirmSubmitDialog, UnansweredDialog, useSubmitRequest } from './exam-submit-dialogs';
import { ExamTopbar, screenAlerts } from './exam-topbar';
import { ElsewhereDialog, LoginDialog, prefetchExamDialogs } from './lazy-dialogs';
import { PredictionView, QuestionView } from './question-view';
import { useAnswerStore, useAutosave, useBrowserOnline } from './use-autosave';
import { useExamClock } from './use-exam-clock';
import { useExamEnd } from './use-exam-end';
import { useExamKeys, useQuestionMoves } from './use-exam-moves';
import { useExamReadAloud } from './use-exam-read-aloud';
import { useExamSubmit, useMountedRef } from './use-exam-submit';
import './exams.css';

/** Where the child goes on leaving an exam opened elsewhere: the join page (the practice offer is there too). */
const LEAVE_PATH = '/du-thi';

export function ExamScreen({ exam, initialOffsetMs, fromDevice = false, backend, onReload }: {
  exam: ExamingResponse;
  initialOffsetMs: number;
  /** The paper kept on the device, shown without the server (a reload without network). */
  fromDevice?: boolean;
  backend: ExamBackend;
  /** Loads the exam again (a new writer handle): "Tiếp tục ở đây" once it was opened elsewhere. */
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const session = useSession();
  /** The parent's phone, for the login dialog even if the session is gone by then. */
  const [parentPhone] = useState(() => getSession()?.user.phone);
  const data = exam.data;
  const questions = data.data_questions;
  const store = useAnswerStore(data, backend.save, fromDevice);
  const online = useBrowserOnline();
  const mounted = useMountedRef();
  const paper = useExamSubmit({ store, backend, questions, mounted });
  const { phase, missing, submit } = paper;
  const { finish, endSession } = paper;
  const clock = useExamClock({ initialOffsetMs, endTime: data.end_time, fetchTime: backend.time, mounted, finish, endSession });
  useExamEnd({ store, ...paper, ...clock, mounted });
  useAutosave(store, clock.resync, paper.wake);
  useEffect(() => {
    const prefetch = setTimeout(prefetchExamDialogs, 2_000);
    return () => clearTimeout(prefetch);
  }, []);
  const [textSize, setTextSize] = useDevicePreference<TextSize>('exam-text-size', 1, parseTextSize);
  const [timerFolded, setTimerFolded] = useDevicePreference<boolean>('exam-timer-folded', false, parseBoolean);
  const locked = phase !== 'answering';
  const items = paperItems(questions.map((question) => question.id), store, missing);
  const lastIndex = items.length - 1;
  const current = Math.min(store.current, lastIndex);
  const question = current === lastIndex ? undefined : questions[current];
  const { readAloud, voiceNotice } = useExamReadAloud(questions, current);
  const { jump, questionRef, topbarRef } = useQuestionMoves(store, current);

  const elsewhere = store.elsewhere;
  const askLogin = phase !== 'done' && (paper.sessionEnded || store.loginNeeded || session === null);
  const askWhere = phase !== 'done' && !askLogin && elsewhere !== null;
  const dialogs = useSubmitRequest(items, paper.setMissing, elsewhere !== null);
  const requestSubmit = () => {
    paper.setSubmitError(null);
    dialogs.request();
  };
  const loggedInAgain = () => {
    paper.setSessionEnded(false);
    paper.wake();
    void store.retryNow().then(clock.resync);
  };
  const choose = (questionId: number, answerId: number) => store.choose(questionId, answerId);
  const blocked = askLogin || askWhere || dialogs.confirming || dialogs.unanswered !== null;
  useExamKeys({ blocked, question, current, lastIndex, canAnswer: !locked, canSubmit: phase === 'answering', jump, choose, requestSubmit });

  const { remainingMs } = clock;
  const timeText = formatCountdown(Math.ceil(Math.max(0, remainingMs) / 1000));
  const unansweredCount = items.filter((item) => !item.answered).length;
  const alerts = screenAlerts({ store, phase, remainingMs, submitIssue: paper.submitIssue, submitError: paper.submitError, voiceNotice, offline: fromDevice && !online });

  return (
    <>
      <div className="container page exam-page" data-text-size={textSize} inert={askLogin || askWhere || undefined}>
        <ExamHead practice={Boolean(backend.practice)} bookName={data.book.name} childName={exam.children.fullname} textSize={textSize} onTextSize={setTextSize} />
        <ExamTopbar
          barRef={topbarRef}
          remainingMs={remainingMs}
          totalMs={data.duration_seconds * 1000}
          timeText={timeText}
          status={store.status}
          folded={timerFolded}
          onFold={setTimerFolded}
          notice={clock.timeNotice !== null && phase === 'answering' && !elsewhere ? timeNoticeText(clock.timeNotice, unansweredCount) : ''}
          alerts={alerts}
        />

        <div className="card exam-card" ref={questionRef}>
          {question ? (
            <QuestionView
              key={question.id}
              number={current + 1}
              question={question}
              chosen={store.answers[question.id]}
              disabled={locked}
              onChoose={(answerId) => choose(question.id, answerId)}
              readAloud={readAloud}
            />
          ) : (
            <PredictionView
              number={lastIndex + 1}
              text={store.predictionText}
              disabled={locked}
              onChange={(text) => store.setPrediction(text)}
              onEnter={() => phase === 'answering' && requestSubmit()}
            />
          )}
        </div>

        <ExamSteps current={current} count={items.length} onJump={jump} />
        <ExamNavigator items={items} current={current} onJump={jump} />

        {backend.practice && <p className="exam-practice-note">{examMessages.practiceNote}</p>}

        <Button
          variant="accent"
          block
          className="exam-submit"
          onClick={phase === 'failed' ? () => void submit(true) : phase === 'waiting' ? paper.wake : requestSubmit}
          disabled={phase !== 'answering' && phase !== 'failed' && phase !== 'waiting'}
        >
          {phase === 'submitting' ? examMessages.autoSubmitting : 'Nộp bài'}
        </Button>

        {dialogs.unanswered && <UnansweredDialog positions={dialogs.unanswered} onClose={dialogs.closeUnanswered} onJump={jump} />}
        {dialogs.confirming && <ConfirmSubmitDialog onClose={dialogs.closeConfirm} onConfirm={() => void submit(false)} />}
      </div>
      {askLogin && (
        <Suspense fallback={null}>
          <LoginDialog phone={session?.user.phone ?? parentPhone} timeLeft={timeText} onLoggedIn={loggedInAgain} />
        </Suspense>
      )}
      {askWhere && (
        <Suspense fallback={null}>
          <ElsewhereDialog unsaved={elsewhere.unsaved} onStay={onReload} onLeave={() => navigate(LEAVE_PATH)} />
        </Suspense>
      )}
    </>
  );
}
