// The contestant's answers during an exam: kept on the device the moment they are chosen, sent to
// the server in order, never lost. Framework-free so that it can be unit-tested.
//
// Sequence numbers: every change increments `seq`; a save carries the seq of the snapshot it
// sends, and the server ignores a save older than one it already applied. `ackedSeq` is the
// highest seq the server confirmed; everything above it is still pending.
//
// Failed saves are retried with jittered exponential back-off (never sooner than the server's
// Retry-After); while a retry waits, further changes are only kept on the device and go with it,
// so that a recovering server is not met by every contestant's every tap at once.
//
// One writer per exam (issue 20): the screen that loaded the exam last is the only one whose saves
// the server takes. When another screen has taken over (409 exam_open_elsewhere), this one stops
// for good, is never retried, and forgets the answers it could not save, so that nothing of them is
// merged into the other screen's later, not even by a reload; the screen asks the child what to do.
import type { ErrorCode } from '../../../shared/error-codes';
import { parsePredictionInput } from '../../../shared/exam-input';
import { retryDelayMs } from '../../lib/api-client';

/** stopped: another screen writes the exam now (issue 20); nothing more is sent from this one. */
export type SaveStatus = 'saved' | 'saving' | 'offline' | 'stopped' | 'closed';

export interface SavePayload {
  answers: { question_id: number; answer_id: number }[];
  prediction?: number;
  seq: number;
}

/**
 * What a save attempt came to: applied (or already superseded); the server out of reach or briefly
 * away (network loss, timeout, 502/503/504: the child is told the answers wait on the device);
 * another failure worth retrying (a 500, a conflict); the session ended (log in again); or a final
 * refusal.
 */
export type SaveOutcome =
  | { kind: 'ok' }
  | { kind: 'unavailable'; retryAfterSeconds?: number }
  | { kind: 'retry'; retryAfterSeconds?: number }
  /** 401: the parent's session ended elsewhere; saving waits for a new login (retryNow). */
  | { kind: 'unauthorized' }
  /** 409 exam_open_elsewhere: another screen loaded the exam since; never retried. */
  | { kind: 'elsewhere' }
  | { kind: 'refused'; code?: ErrorCode; message: string };

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface StoredExam {
  v: 1;
  seq: number;
  ackedSeq: number;
  answers: Record<string, number>;
  /** The prediction as typed (may be invalid or empty). */
  prediction: string;
  /** The item on screen (0-based), so that a reload comes back to it. */
  current?: number;
  /** What the server held as far as this device last knew (restored or acknowledged). */
  acked?: AckedAnswers;
}

interface AckedAnswers {
  answers: Record<string, number>;
  prediction?: number;
}

const sameAnswers = (a: AckedAnswers, b: AckedAnswers) =>
  a.prediction === b.prediction &&
  Object.keys(a.answers).length === Object.keys(b.answers).length &&
  Object.entries(a.answers).every(([questionId, answerId]) => b.answers[questionId] === answerId);

export interface ServerAnswers {
  answers: { question_id: number; answer_id: number }[];
  prediction: number | null;
  saveSeq: number;
}

export interface AnswerStoreOptions {
  slug: string;
  storage: KeyValueStorage | null;
  send: (payload: SavePayload, options: { keepalive: boolean }) => Promise<SaveOutcome>;
  /** Wait after a change before saving (ms): several quick taps make one request. */
  debounceMs?: number;
  /** Back-off window after the first failed save (ms); doubles with each failure up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** The jitter's random source, [0, 1) (Math.random; fixed in tests). */
  random?: () => number;
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
}

export const storageKey = (slug: string) => `exam:${slug}`;

const validIndex = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);

/** Answers (and the prediction, when valid) that differ from what the server acknowledged. */
function unsavedAgainst(sheet: { answers: Record<string, number>; prediction: string }, acked: AckedAnswers) {
  const changed = Object.entries(sheet.answers).filter(([questionId, answerId]) => acked.answers[questionId] !== answerId).length;
  const prediction = parsePredictionInput(sheet.prediction).value;
  return changed + (prediction !== undefined && prediction !== acked.prediction ? 1 : 0);
}

const answerMap = (payload: SavePayload) => Object.fromEntries(payload.answers.map((answer) => [answer.question_id, answer.answer_id]));

export class AnswerStore {
  answers: Record<string, number> = {};
  predictionText = '';
  seq = 0;
  ackedSeq = 0;
  status: SaveStatus = 'saved';
  /** The item on screen (0-based; the screen clamps it to its items). */
  current = 0;
  /** A save met a 401: nothing is sent until retryNow() (after the parent logs in again). */
  loginNeeded = false;
  /** Set when the server refused a save for good (time up, exam submitted, not found). */
  refusal: { code?: ErrorCode; message: string } | null = null;
  /**
   * Set when another screen took the exam over (with how many answers of this screen never
   * reached the server): nothing more is sent or changed here.
   */
  elsewhere: { unsaved: number } | null = null;
  /** The answers the server holds as far as this screen knows (restored, or acknowledged last). */
  private acked: AckedAnswers = { answers: {} };

  private closed = false;
  private readonly listeners = new Set<() => void>();
  private inFlight: Promise<void> | null = null;
  private debounceHandle: unknown = null;
  private retryHandle: unknown = null;
  /** Failed saves in a row: the back-off exponent, back to 0 on success. */
  private failures = 0;
  private readonly timers: NonNullable<AnswerStoreOptions['timers']>;
  /** The device copy as this screen last wrote it (another tab of the browser may write it too). */
  private written: string | undefined;

  constructor(private readonly options: AnswerStoreOptions) {
    this.timers = options.timers ?? {
      set: (fn, ms) => setTimeout(fn, ms),
      clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
  }

  /**
   * Merges what the device kept with what the server holds: the newer by seq wins, and answers
   * only one side knows are kept. Pending local changes are then sent. Unless another screen
   * changed the answers since this device last heard from the server (issue 20): then the device's
   * unsaved answers are not merged, the server's are shown, and the screen stops as after a 409
   * exam_open_elsewhere, so that the child chooses (the dialog) rather than overwriting the other.
   */
  restore(server: ServerAnswers) {
    const local = this.readLocal();
    const serverAnswers: Record<string, number> = {};
    for (const answer of server.answers) serverAnswers[answer.question_id] = answer.answer_id;
    const serverPrediction = server.prediction === null ? '' : String(server.prediction);
    const held: AckedAnswers = { answers: serverAnswers, prediction: server.prediction ?? undefined };
    const unsavedHere = local?.acked && local.seq > local.ackedSeq ? unsavedAgainst(local, local.acked) : 0;
    // Changed elsewhere: neither what this device last knew nor its own unacknowledged save.
    const changedElsewhere =
      unsavedHere > 0 && !sameAnswers(held, local!.acked!) && !sameAnswers(held, { answers: local!.answers, prediction: parsePredictionInput(local!.prediction).value });
    this.acked = held;
    if (changedElsewhere) {
      this.answers = serverAnswers;
      this.predictionText = serverPrediction;
      this.seq = server.saveSeq;
      this.ackedSeq = server.saveSeq;
      this.current = validIndex(local!.current);
      this.stopElsewhere(unsavedHere);
      return;
    }
    if (local && local.seq > server.saveSeq) {
      this.answers = { ...serverAnswers, ...local.answers };
      this.predictionText = local.prediction !== '' ? local.prediction : serverPrediction;
      this.seq = local.seq;
      this.ackedSeq = Math.min(local.ackedSeq, server.saveSeq);
    } else {
      this.answers = { ...(local?.answers ?? {}), ...serverAnswers };
      this.predictionText = serverPrediction !== '' ? serverPrediction : (local?.prediction ?? '');
      this.seq = Math.max(server.saveSeq, local?.seq ?? 0);
      // Answers only the device knew (saved without seq elsewhere) still need sending.
      const localOnly = Object.keys(this.answers).some((key) => serverAnswers[key] === undefined);
      const predictionOnlyLocal = serverPrediction === '' && this.predictionText !== '';
      if (localOnly || predictionOnlyLocal) this.seq += 1;
      this.ackedSeq = server.saveSeq;
    }
    this.current = validIndex(local?.current);
    this.writeLocal();
    this.status = this.pending ? 'saving' : 'saved';
    this.emit();
    if (this.pending) void this.flush();
  }

  /**
   * The paper was shown from the device without the server (a reload without network, issue
   * 24.8): the device's copy is the newest there is, taken as it is (`kept`, the answers the kept
   * paper was loaded with, are older than every save since); pending answers go once the server
   * answers again. Without a device copy, the kept paper's answers, as restore() would.
   */
  restoreFromDevice(kept: ServerAnswers) {
    const local = this.readLocal();
    if (!local || local.seq === 0) {
      this.restore(kept);
      return;
    }
    this.answers = local.answers;
    this.predictionText = typeof local.prediction === 'string' ? local.prediction : '';
    this.seq = local.seq;
    this.ackedSeq = typeof local.ackedSeq === 'number' ? local.ackedSeq : 0;
    if (local.acked) this.acked = local.acked;
    this.current = validIndex(local.current);
    this.status = this.pending ? 'saving' : 'saved';
    this.emit();
    if (this.pending) void this.flush();
  }

  get slug(): string {
    return this.options.slug;
  }

  get pending(): boolean {
    return this.seq > this.ackedSeq;
  }

  /** The prediction when it is a valid answer, else undefined. */
  get prediction(): number | undefined {
    return parsePredictionInput(this.predictionText).value;
  }

  choose(questionId: number, answerId: number) {
    if (this.elsewhere || this.answers[questionId] === answerId) return;
    this.answers = { ...this.answers, [questionId]: answerId };
    this.changed();
  }

  setPrediction(text: string) {
    if (this.elsewhere || text === this.predictionText) return;
    this.predictionText = text;
    this.changed();
  }

  /** Moves to another item: kept on the device (not a change of answers, nothing is sent). */
  goTo(index: number) {
    if (index === this.current) return;
    this.current = index;
    // After a take-over the device copy holds only the item on screen (openedElsewhere).
    if (this.elsewhere) this.forgetUnsaved();
    else this.writeLocal();
    this.emit();
  }

  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The full answer state with the current seq (for a submit). */
  snapshot(): SavePayload {
    const prediction = this.prediction;
    return {
      answers: Object.entries(this.answers).map(([questionId, answerId]) => ({ question_id: Number(questionId), answer_id: answerId })),
      ...(prediction !== undefined ? { prediction } : {}),
      seq: this.seq,
    };
  }

  /**
   * Sends pending changes. Saves are strictly one after another (a later snapshot never races an
   * earlier one); `keepalive` lets the request outlive the page (pagehide). While a retry waits
   * its back-off, only the retry timer (or retryNow) sends.
   */
  flush(options: { keepalive?: boolean } = {}): Promise<void> {
    this.clearTimer('debounce');
    if (this.closed || this.refusal || this.elsewhere || this.loginNeeded || !this.pending) return this.inFlight ?? Promise.resolve();
    if (options.keepalive) {
      // The page is going away: fire without waiting for the save under way (or the back-off).
      void this.options.send(this.snapshot(), { keepalive: true }).catch(() => undefined);
      return Promise.resolve();
    }
    if (this.retryHandle) return Promise.resolve();
    if (this.inFlight) return this.inFlight.then(() => this.flush());
    this.inFlight = this.sendOnce().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Answers (and the prediction) on this screen that the server has not acknowledged. */
  unsavedCount(): number {
    return unsavedAgainst({ answers: this.answers, prediction: this.predictionText }, this.acked);
  }

  /**
   * Another screen writes the exam now (a save's or the submit's 409 exam_open_elsewhere): stop
   * for good, no retry. The answers this screen could not save are forgotten on the device (the
   * item on screen is kept), so that a reload here takes the server's answers as they are and
   * never merges these into the other screen's without the child choosing it.
   */
  openedElsewhere() {
    if (this.elsewhere || this.closed) return;
    this.stopElsewhere(this.unsavedCount());
  }

  private stopElsewhere(unsaved: number) {
    this.elsewhere = { unsaved };
    this.clearTimer('debounce');
    this.clearTimer('retry');
    this.status = 'stopped';
    this.forgetUnsaved();
    this.emit();
  }

  /**
   * The device copy after a take-over: only the item on screen. Left alone when another tab of
   * this browser (the one that took over) has written it since: that copy is the other's.
   */
  private forgetUnsaved() {
    if (this.written !== undefined && this.readRaw() !== this.written) return;
    this.writeLocal({ v: 1, seq: 0, ackedSeq: 0, answers: {}, prediction: '', current: this.current });
  }

  /** Called when the exam is over (submitted): forget the device copy and stop saving. */
  close() {
    this.clearTimer('debounce');
    this.clearTimer('retry');
    this.closed = true;
    this.status = 'closed';
    try {
      this.options.storage?.removeItem(storageKey(this.options.slug));
    } catch {
      // storage unavailable: nothing to forget
    }
    this.emit();
  }

  /** Stops timers without forgetting anything (the screen unmounts). */
  dispose() {
    this.clearTimer('debounce');
    this.clearTimer('retry');
    this.listeners.clear();
  }

  private async sendOnce() {
    const payload = this.snapshot();
    this.status = 'saving';
    this.emit();
    let outcome: SaveOutcome;
    try {
      outcome = await this.options.send(payload, { keepalive: false });
    } catch {
      outcome = { kind: 'unavailable' };
    }
    // Ended meanwhile (submitted, or the submit met another screen): nothing more to note.
    if (this.closed || this.elsewhere) return;
    if (outcome.kind === 'ok') {
      if (payload.seq >= this.ackedSeq) this.acked = { answers: answerMap(payload), prediction: payload.prediction };
      this.ackedSeq = Math.max(this.ackedSeq, payload.seq);
      this.failures = 0;
      this.clearTimer('retry');
      this.writeLocal();
      this.status = this.pending ? 'saving' : 'saved';
      this.emit();
      if (this.pending) this.schedule();
      return;
    }
    if (outcome.kind === 'refused') {
      this.refusal = { code: outcome.code, message: outcome.message };
      this.status = 'offline';
      this.emit();
      return;
    }
    if (outcome.kind === 'elsewhere') {
      this.openedElsewhere();
      return;
    }
    if (outcome.kind === 'unauthorized') {
      this.loginNeeded = true;
      this.status = 'offline';
      this.emit();
      return;
    }
    this.status = outcome.kind === 'unavailable' ? 'offline' : 'saving';
    this.emit();
    this.scheduleRetry(outcome.retryAfterSeconds);
  }

  private changed() {
    this.seq += 1;
    this.writeLocal();
    if (this.status !== 'offline') this.status = 'saving';
    this.emit();
    this.schedule();
  }

  private schedule() {
    this.clearTimer('debounce');
    this.debounceHandle = this.timers.set(() => {
      this.debounceHandle = null;
      void this.flush();
    }, this.options.debounceMs ?? 1_500);
  }

  private scheduleRetry(retryAfterSeconds?: number) {
    if (this.retryHandle) return;
    const delay = retryDelayMs(this.failures, {
      baseMs: this.options.retryMs ?? 2_000,
      capMs: this.options.maxRetryMs ?? 30_000,
      retryAfterSeconds,
      random: this.options.random,
    });
    this.failures += 1;
    this.retryHandle = this.timers.set(() => {
      this.retryHandle = null;
      void this.flush();
    }, delay);
  }

  /** The connection came back (or the parent logged in again): send at once, before anything else. */
  retryNow(): Promise<void> {
    this.loginNeeded = false;
    this.clearTimer('retry');
    this.failures = 0;
    return this.flush();
  }

  private clearTimer(which: 'debounce' | 'retry') {
    const handle = which === 'debounce' ? this.debounceHandle : this.retryHandle;
    if (handle) this.timers.clear(handle);
    if (which === 'debounce') this.debounceHandle = null;
    else this.retryHandle = null;
  }

  private readRaw(): string | null {
    try {
      return this.options.storage?.getItem(storageKey(this.options.slug)) ?? null;
    } catch {
      return null;
    }
  }

  private readLocal(): StoredExam | null {
    try {
      const text = this.readRaw();
      if (!text) return null;
      const parsed = JSON.parse(text) as StoredExam;
      return parsed?.v === 1 && typeof parsed.seq === 'number' && parsed.answers && typeof parsed.answers === 'object' ? parsed : null;
    } catch {
      return null;
    }
  }

  private writeLocal(
    stored: StoredExam = {
      v: 1,
      seq: this.seq,
      ackedSeq: this.ackedSeq,
      answers: this.answers,
      prediction: this.predictionText,
      current: this.current,
      acked: this.acked,
    },
  ) {
    try {
      const text = JSON.stringify(stored);
      this.options.storage?.setItem(storageKey(this.options.slug), text);
      this.written = text;
    } catch {
      // Storage full or disabled: the server copy (saved every few seconds) still holds the answers.
    }
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}
