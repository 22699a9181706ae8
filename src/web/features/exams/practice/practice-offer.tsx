// "Thi thử" on /du-thi (issue 14): beside the real start, one button per contestant that opens a
// practice round, with the one line saying why. Practice never uses one of the 3 attempts.
import { useId } from 'react';
import { PRACTICE_QUESTIONS } from '../../../../shared/schemas/practice';
import { practiceMessages } from '../../../../shared/messages';
import { Button } from '../../../components/ui/button';
import { Link } from '../../../lib/router';
import { useData } from '../../../lib/use-data';
import { fetchPracticeStatus, practicePath } from './practice-api';
import { useStartPractice } from './use-start-practice';
import './practice.css';

export function PracticeOffer() {
  const titleId = useId();
  const practice = useData('practice-status', () => fetchPracticeStatus().then((response) => response.data), { warn: 'Không tải được thông tin thi thử' });
  const status = practice.data;
  const { start, busy } = useStartPractice();

  return (
    <section className="practice-offer card" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <span className="exam-practice-badge">{practiceMessages.offerTitle}</span>
      </h2>
      <p className="practice-offer-line">{practiceMessages.offerLine}</p>
      <p className="muted">{practiceMessages.offerDetails}</p>
      {practice.error !== undefined && <p className="alert alert-warning">{practiceMessages.loadStatusFailed}</p>}
      {status && !status.open && <p className="muted">{practiceMessages.closed}</p>}
      {status?.open && (
        <ul className="practice-offer-list">
          {status.contestants.map((contestant) => (
            <li key={contestant.child_id}>
              <span className="practice-offer-name">{contestant.fullname}</span>
              {contestant.question_count === 0 ? (
                <span className="muted">{practiceMessages.notAvailable}</span>
              ) : (
                <span className="practice-offer-actions">
                  {/* Named with the contestant (several on one account); the visible words come first. */}
                  <Button
                    variant="outline"
                    onClick={() => void start(contestant.child_id)}
                    disabled={busy}
                    aria-label={`${practiceMessages.start}: ${contestant.fullname}`}
                  >
                    {practiceMessages.start}
                  </Button>
                  {contestant.in_progress_slug && (
                    <Link
                      className="btn btn-outline"
                      href={practicePath(contestant.in_progress_slug)}
                      aria-label={`${practiceMessages.resume}: ${contestant.fullname}`}
                    >
                      {practiceMessages.resume}
                    </Link>
                  )}
                  {contestant.question_count < PRACTICE_QUESTIONS && (
                    <span className="muted">{practiceMessages.fewerQuestions(contestant.question_count)}</span>
                  )}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
