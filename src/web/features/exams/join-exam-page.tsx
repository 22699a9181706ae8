// Join exam (/du-thi, spec sections 2 and 4): the exam period, the contestant and book selects,
// 'Vào thi', the table of the account's exams and a link to the report. Parents only: the route
// table (app/routes.tsx) shows other roles a message instead.
import { useEffect, useState, type FormEvent } from 'react';
import { examMessages, messages } from '../../../shared/messages';
import { formatDate } from '../../../shared/format';
import { DEFAULT_EXAM_DURATION_SECONDS, MAX_ATTEMPTS_PER_CONTESTANT, NOTICE_MS } from '../../../shared/rules';
import { attemptRemarks, type Contestant, type ProfileResponse } from '../../../shared/schemas/profile';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { SelectField } from '../../components/ui/field';
import { notify } from '../../components/ui/notices';
import { ApiRequestError, api } from '../../lib/api-client';
import { Link, useNavigate } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import { useSite } from '../../lib/site';
import { useData } from '../../lib/use-data';
import { useRequireAuth } from '../../lib/use-require-auth';
import { fetchBooksOfContestant, startExam } from './exam-api';
import { useVietnameseVoice } from './read-aloud';
import './exams.css';
import { Loading } from '../../components/ui/loading';
import { NoContestantsWarning } from '../../components/no-contestants-warning';
import { PracticeOffer } from './practice/practice-offer';

/** Seconds the Continue message counts down before it opens the exam in progress. */
const CONTINUE_SECONDS = 3;

const examPath = (bookId: number, childId: number, slug: string) => `/bat-dau-thi/${bookId}/${childId}/${slug}`;

export function JoinExamPage() {
  usePageTitle('Vào thi');
  const session = useRequireAuth(messages.pleaseRegisterToJoin);
  const site = useSite();
  // Profile load errors are only logged (spec section 8): the page keeps showing it is loading.
  const profile = useData(
    session ? 'profile' : null,
    (signal) => api.get<ProfileResponse>('/profile', { signal }).then((response) => response.data.childrens),
    { warn: 'Không tải được thông tin tài khoản' },
  );
  const contestants = profile.data;

  // The exam screen's code, fetched while the parent chooses: 'Vào thi' then waits only for the exam.
  useEffect(() => {
    void import('./exam-page').catch(() => undefined);
  }, []);


  const contest = site?.contest;
  return (
    <div className="container page">
      <h1>Vào thi</h1>
      {session && (
        <>
          <p className="join-exam-period">
            Thời gian thi:{' '}
            {contest ? (
              <strong>{`${formatDate(contest.exam_starts_at)} - ${formatDate(contest.exam_ends_at)}`}</strong>
            ) : (
              // Until the contest's dates arrive: invisible dates of the same width, so the line
              // wraps as it will (at 360 px it takes two) and nothing below moves when they come.
              <strong className="join-exam-period-placeholder" aria-hidden="true">
                00/00/0000 - 00/00/0000
              </strong>
            )}
          </p>
          {!contestants ? (
            <Loading />
          ) : contestants.length === 0 ? (
            <NoContestantsWarning />
          ) : (
            <>
              <StartForm contestants={contestants} />
              <VoiceHint />
              {/* The practice round beside the real start (issue 14). */}
              <PracticeOffer />
              <ExamTable contestants={contestants} />
              <p className="join-exam-report">
                <Link className="btn btn-outline" href="/bao-cao">
                  Xem báo cáo
                </Link>
              </p>
            </>
          )}
        </>
      )}
    </div>
  );
}

/** Told before the exam, where the parent is: the phone cannot read questions aloud, and how to change that. */
function VoiceHint() {
  const { missing } = useVietnameseVoice();
  return missing ? <p className="muted join-exam-voice-hint">{examMessages.noVietnameseVoice}</p> : null;
}

function StartForm({ contestants }: { contestants: Contestant[] }) {
  // The organiser's setting (the server enforces it too); the spec's 3 until /api/site answers.
  const attemptsAllowed = useSite()?.contest?.attempts_per_contestant ?? MAX_ATTEMPTS_PER_CONTESTANT;
  const navigate = useNavigate();
  const [childId, setChildId] = useState('');
  const [bookId, setBookId] = useState('');
  const [errors, setErrors] = useState<{ child?: string; book?: string }>({});
  const [busy, setBusy] = useState(false);
  const [continuing, setContinuing] = useState<{ path: string; message: string; seconds: number } | null>(null);
  /** The attempt a start would use, asked before it is used (null: not asking). */
  const [confirming, setConfirming] = useState<{ attempt: number; allowed: number } | null>(null);
  const examMinutes = Math.round((useSite()?.contest?.exam_duration_seconds ?? DEFAULT_EXAM_DURATION_SECONDS) / 60);

  const booksOf = useData(childId || null, () => fetchBooksOfContestant(Number(childId)), { warn: 'Không tải được danh sách sách thi' });
  const books = childId && !booksOf.loading && !booksOf.error ? (booksOf.data ?? []) : [];
  useEffect(() => {
    if (booksOf.error instanceof ApiRequestError) notify('error', booksOf.error.message);
  }, [booksOf.error]);

  // The Continue message: counts down, then opens the exam in progress.
  useEffect(() => {
    if (!continuing) return;
    if (continuing.seconds <= 0) {
      navigate(continuing.path);
      return;
    }
    const timer = setTimeout(() => setContinuing({ ...continuing, seconds: continuing.seconds - 1 }), 1000);
    return () => clearTimeout(timer);
  }, [continuing, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = { child: childId ? undefined : messages.chooseContestant, book: bookId ? undefined : messages.chooseBook };
    setErrors(found);
    if (found.child || found.book) return;
    const contestant = contestants.find((c) => String(c.id) === childId);
    // An exam in progress is continued, not started: nothing to spend, nothing to ask.
    if (!contestant || contestant.exams.some((exam) => exam.status === 2)) return void start();
    const next = { attempt: contestant.exams.length + 1, allowed: attemptsAllowed + contestant.extra_attempts };
    // No attempt left: the server's answer says so, there is nothing to confirm.
    if (next.attempt > next.allowed) return void start();
    setConfirming(next);
  };

  const start = async () => {
    setConfirming(null);
    setBusy(true);
    try {
      const started = await startExam(Number(bookId), Number(childId));
      notify('success', started.message);
      setTimeout(() => navigate(examPath(started.book_id, started.child_id, started.slug)), NOTICE_MS);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiRequestError && error.body.doing) {
        const body = error.body as unknown as { slug: string; book_id: number; child_id: number; message: string };
        setContinuing({ path: examPath(body.book_id, body.child_id, body.slug), message: body.message, seconds: CONTINUE_SECONDS });
      } else if (error instanceof ApiRequestError) {
        notify('error', error.body.message);
      } else {
        console.warn('Không vào thi được', error);
        notify('error', error instanceof Error ? error.message : messages.serverError);
      }
    }
  };

  return (
    <>
      <form className="join-exam-form" onSubmit={onSubmit} noValidate>
        <SelectField
          label="Thí sinh"
          value={childId}
          onChange={(event) => {
            setChildId(event.target.value);
            setBookId('');
          }}
          error={errors.child}
        >
          <option value="">-- Chọn thí sinh --</option>
          {contestants.map((contestant) => {
            const left = attemptsAllowed + contestant.extra_attempts - contestant.exams.length;
            return (
              <option key={contestant.id} value={contestant.id}>
                {contestant.fullname} ({left > 0 ? `còn ${left} lượt thi` : 'hết lượt thi'})
              </option>
            );
          })}
        </SelectField>
        <SelectField label="Sách thi" value={bookId} onChange={(event) => setBookId(event.target.value)} error={errors.book} disabled={!childId}>
          <option value="">-- Chọn sách thi --</option>
          {books.map((book) => (
            <option key={book.id} value={book.id}>
              {book.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="accent" disabled={busy || continuing !== null}>
          Vào thi
        </Button>
      </form>
      {confirming && (
        <Modal
          title={examMessages.confirmStartTitle(confirming.attempt, confirming.allowed)}
          onClose={() => setConfirming(null)}
          role="alertdialog"
          describe
          actions={
            <>
              <Button variant="outline" onClick={() => setConfirming(null)}>
                Chưa thi
              </Button>
              <Button variant="accent" onClick={() => void start()}>
                Bắt đầu thi
              </Button>
            </>
          }
        >
          <p>{examMessages.confirmStartText(examMinutes)}</p>
        </Modal>
      )}
      {continuing && (
        <div className="alert alert-warning join-exam-continue" role="status">
          <p>
            {continuing.message} {examMessages.continueExam(continuing.seconds)}
          </p>
          <Button onClick={() => navigate(continuing.path)}>Tiếp tục thi</Button>
        </div>
      )}
    </>
  );
}

function ExamTable({ contestants }: { contestants: Contestant[] }) {
  const rows = contestants.flatMap((contestant) => contestant.exams.map((exam) => ({ contestant, exam })));
  if (rows.length === 0) return <p className="muted">Chưa có bài thi nào.</p>;
  return (
    <div className="exam-table-wrap">
      <table className="table table-responsive exam-table">
        <caption className="visually-hidden">Các bài thi của thí sinh</caption>
        <thead>
          <tr>
            <th scope="col">STT</th>
            <th scope="col">Thí sinh</th>
            <th scope="col">Điểm</th>
            <th scope="col">Xem kết quả</th>
            <th scope="col">Giải thưởng</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ contestant, exam }, index) => (
            <tr key={exam.id}>
              <td data-label="STT">{index + 1}</td>
              <td data-label="Thí sinh">
                <span>
                  {contestant.fullname}
                  <span className="muted">
                    {' '}
                    – lần {exam.attempt}
                    {attemptRemarks(exam) && ` (${attemptRemarks(exam)})`}, {exam.book.name}
                  </span>
                </span>
              </td>
              <td data-label="Điểm">{exam.status === 1 ? `${exam.points ?? 0}/100` : <span className="status-doing">Đang thi</span>}</td>
              <td data-label="Xem kết quả">
                {exam.status === 1 ? (
                  <Link className="btn btn-outline" href={`/ket-qua-thi/${exam.slug}`}>
                    Xem kết quả
                  </Link>
                ) : (
                  <Link className="btn btn-accent" href={examPath(exam.book_id, contestant.id, exam.slug)}>
                    Tiếp tục thi
                  </Link>
                )}
              </td>
              <td data-label="Giải thưởng">
                {exam.status === 1 ? (
                  <Link className="btn btn-outline" href={`/giay-chung-nhan/${contestant.id}`}>
                    Giấy chứng nhận
                  </Link>
                ) : (
                  '–'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
