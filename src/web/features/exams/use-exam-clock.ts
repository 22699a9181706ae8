// The exam screen's clock: the server's end time on the server's clock (the phone's clock plus the
// offset measured at the load and at each re-sync), the re-sync every TIME_RESYNC_INTERVAL_MS (the
// organiser may extend the attempt; another screen may have submitted it), and the calm notices
// when 5 and 1 minutes are left.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { examMessages } from '../../../shared/messages';
import { TIME_RESYNC_INTERVAL_MS } from '../../../shared/rules';
import { isSessionEnded } from './exam-api';
import { clockOffset, type ExamBackend } from './exam-backend';
import { timeNoticeCrossed } from './exam-comfort';

export function useExamClock({
  initialOffsetMs,
  endTime,
  fetchTime,
  mounted,
  finish,
  endSession,
}: {
  initialOffsetMs: number;
  endTime: string;
  fetchTime: ExamBackend['time'];
  mounted: RefObject<boolean>;
  /** The server says the paper is submitted. */
  finish: (message: string) => void;
  /** A time check met a 401. */
  endSession: () => void;
}) {
  const offsetMs = useRef(initialOffsetMs);
  const [endMs, setEndMs] = useState(() => Date.parse(endTime));
  const [now, setNow] = useState(() => Date.now() + initialOffsetMs);
  /** The last threshold crossed (5 or 1 minutes left): its calm notice is shown and announced. */
  const [timeNotice, setTimeNotice] = useState<number | null>(null);
  const previousRemaining = useRef(Number.POSITIVE_INFINITY);

  /** The server's clock and deadline (the organiser may have extended it); the new end, or undefined when unknown. */
  const resync = useCallback(async (): Promise<number | undefined> => {
    const sentAt = Date.now();
    try {
      const time = await fetchTime();
      offsetMs.current = clockOffset(time.data.server_time, sentAt, Date.now());
      const end = Date.parse(time.data.end_time);
      setEndMs(end);
      if (time.data.status === 1 && mounted.current) finish(examMessages.alreadySubmitted);
      return time.data.status === 1 ? undefined : end;
    } catch (error) {
      if (isSessionEnded(error) && mounted.current) endSession();
      // Otherwise the next re-sync (or the local clock, corrected at the last one) carries on.
      return undefined;
    }
  }, [fetchTime, finish, endSession, mounted]);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now() + offsetMs.current), 250);
    return () => clearInterval(tick);
  }, []);
  useEffect(() => {
    const sync = setInterval(() => void resync(), TIME_RESYNC_INTERVAL_MS);
    return () => clearInterval(sync);
  }, [resync]);

  const remainingMs = endMs - now;
  useEffect(() => {
    const crossed = timeNoticeCrossed(previousRemaining.current, remainingMs);
    previousRemaining.current = remainingMs;
    if (crossed) setTimeNotice(crossed);
  }, [remainingMs]);

  /** The time now on the server's clock (ms). */
  const serverNow = useCallback(() => Date.now() + offsetMs.current, []);
  return { remainingMs, timeNotice, resync, serverNow };
}
