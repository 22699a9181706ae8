// The contestants of `npm run chaos`: each one starts an exam, autosaves about every second (every
// save one more change, with a higher seq) and at the end submits. Requests go through a tiny load
// balancer: a contestant sticks to one app process and moves to the next one on a failure (network
// error, 503, timeout), with a short jittered backoff, as a proxy with retries would.
// Every save is remembered (seq -> answers sent), and every success answer (the acknowledged ones).
import pg from 'pg';
import { hashToken, newToken } from '../../src/server/lib/tokens';

const REQUEST_TIMEOUT_MS = 5000;

export type Answers = Record<string, number>;

export interface Contestant {
  index: number;
  childId: number;
  token: string;
  bookId: number;
  examId: number;
  slug: string;
  questions: { id: number; answers: { id: number }[] }[];
  answers: Answers;
  seq: number;
  /** Every save sent, by seq (a save whose answer was lost may have been applied). */
  sent: Map<number, Answers>;
  /** The highest save the server acknowledged (success and saved). */
  acked: { seq: number; answers: Answers };
  ackCount: number;
  /** When each acknowledgement arrived (performance.now()): for the recovery time. */
  ackTimes: number[];
  /** The seq of each acknowledged save, in the order of ackTimes (the failover drill counts those lost). */
  ackSeqs: number[];
  /** How long each acknowledged save took, request to answer (ms), in the order of ackTimes. */
  ackDurations: number[];
  submitted?: { seq: number; answers: Answers };
  target: number;
}

/** How each request ended, counted by kind, with a sample of each kind's answer. */
export class Tally {
  readonly counts = new Map<string, number>();
  readonly samples = new Map<string, string>();
  /** Messages of the 503 answers (the issue asks for a Vietnamese "try again"). */
  readonly unavailableMessages = new Set<string>();

  add(kind: string, sample?: string) {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (sample && !this.samples.has(kind)) this.samples.set(kind, sample.slice(0, 300));
  }

  count(kind: string) {
    return this.counts.get(kind) ?? 0;
  }

  summary() {
    const failures = [...this.counts].filter(([kind]) => kind !== 'ok');
    return failures.length ? failures.map(([kind, n]) => `${kind} ${n.toLocaleString('en-US')}`).join(', ') : 'none';
  }
}

/** The app processes' base URLs; a slot is replaced when a process is replaced. */
export class Balancer {
  constructor(readonly targets: string[]) {}
}

type Reply = { ok: true; status: number; json: any } | { ok: false; kind: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => sleep(Math.min(2000, 200 * 2 ** Math.min(attempt, 4)) * (0.5 + Math.random() * 0.5));

/** One request to the contestant's current process; a failure moves the contestant to the next one. */
async function call(balancer: Balancer, tally: Tally, c: Contestant, method: string, path: string, body?: unknown): Promise<Reply> {
  const base = balancer.targets[c.target % balancer.targets.length]!;
  let failure: string;
  try {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${c.token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.status < 500 && json?.success === true) {
      tally.add('ok');
      return { ok: true, status: response.status, json };
    }
    if (response.status === 503) {
      failure = '503';
      if (typeof json?.message === 'string') tally.unavailableMessages.add(json.message);
    } else {
      failure = response.status >= 500 ? `${response.status}!` : `${response.status} ${json?.code ?? ''}`.trim();
    }
    tally.add(failure, `${path}: ${text}`);
    if (response.status < 500) return { ok: false, kind: failure }; // a refusal of this request: retrying elsewhere changes nothing
  } catch (error) {
    const name = (error as Error).name;
    const code = ((error as { cause?: { code?: string } }).cause?.code ?? '') as string;
    failure = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : code === 'ECONNREFUSED' ? 'refused' : `network ${code || name}`;
    tally.add(failure, `${path}: ${String((error as { cause?: unknown }).cause ?? error)}`);
  }
  c.target += 1; // fail over
  return { ok: false, kind: failure };
}

/** Retries a request (failing over each time) until it succeeds or `deadlineMs` passes. */
async function callUntil(balancer: Balancer, tally: Tally, c: Contestant, deadlineMs: number, method: string, path: string, body?: () => unknown) {
  const deadline = performance.now() + deadlineMs;
  for (let attempt = 0; performance.now() < deadline; attempt++) {
    const reply = await call(balancer, tally, c, method, path, body?.());
    if (reply.ok) return reply;
    await backoff(attempt);
  }
  return undefined;
}

/** Registers `count` parents with one child each, straight into the database (the SMS flow is not under test). */
export async function createContestants(databaseUrl: string, count: number): Promise<Contestant[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const school = (await pool.query('SELECT id, district_id FROM schools ORDER BY id LIMIT 1')).rows[0];
    const groups = (
      await pool.query(`SELECT g.id, min(r.id) AS room, array_agg(DISTINCT b.id) AS books
                        FROM class_groups g JOIN class_rooms r ON r.class_group_id = g.id
                        JOIN books b ON b.class_group_id = g.id AND b.contest_id = (SELECT id FROM contests WHERE is_current)
                        GROUP BY g.id ORDER BY g.id`)
    ).rows as { id: number; room: number; books: number[] }[];
    const tokens = Array.from({ length: count }, () => newToken());
    const phones = Array.from({ length: count }, (_, i) => `07${String(i).padStart(8, '0')}`);
    const users = (
      await pool.query(`INSERT INTO users (phone, password_hash, role) SELECT unnest($1::text[]), 'chaos', 'parent' RETURNING id`, [phones])
    ).rows.map((row) => row.id as number);
    await pool.query(`INSERT INTO sessions (user_id, token_hash, expires_at) SELECT unnest($1::int[]), unnest($2::text[]), now() + interval '1 day'`, [
      users,
      tokens.map(hashToken),
    ]);
    const groupOf = users.map((_, i) => groups[i % groups.length]!);
    const childIds = (
      await pool.query(
        `INSERT INTO contestants (user_id, position, fullname, district_id, school_id, class_group_id, class_room_id)
         SELECT u, 1, 'Thí sinh ' || u, $2, $3, g, r FROM unnest($1::int[], $4::int[], $5::int[]) AS t(u, g, r) RETURNING id`,
        [users, school.district_id, school.id, groupOf.map((g) => g.id), groupOf.map((g) => g.room)],
      )
    ).rows.map((row) => row.id as number);
    return childIds.map((childId, i) => ({
      index: i,
      childId,
      token: tokens[i]!,
      bookId: groupOf[i]!.books[i % groupOf[i]!.books.length]!,
      examId: 0,
      slug: '',
      questions: [],
      answers: {},
      seq: 0,
      sent: new Map([[0, {}]]),
      acked: { seq: 0, answers: {} },
      ackCount: 0,
      ackTimes: [],
      ackSeqs: [],
      ackDurations: [],
      target: i,
    }));
  } finally {
    await pool.end();
  }
}

/** Runs `job` for every item with at most `limit` at a time. */
export async function eachLimited<T>(items: T[], limit: number, job: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await job(items[next++]!);
  }));
}

/** Every contestant presses 'Vào thi' and loads the exam's questions; returns how many could not. */
export async function startExams(contestants: Contestant[], balancer: Balancer, tally: Tally): Promise<number> {
  let failed = 0;
  await eachLimited(contestants, 50, async (c) => {
    const started = await callUntil(balancer, tally, c, 20_000, 'POST', '/api/start-exam', () => ({ book_id: c.bookId, child_id: c.childId }));
    if (!started) return void (failed += 1);
    c.examId = started.json.exam_id;
    c.slug = started.json.slug;
    const exam = await callUntil(balancer, tally, c, 20_000, 'GET', `/api/examing?book_id=${c.bookId}&child_id=${c.childId}&slug_exam=${c.slug}`);
    if (!exam) return void (failed += 1);
    c.questions = exam.json.data.data_questions;
  });
  return failed;
}

/**
 * The next save of a contestant as the benchmarks send it: one more question answered (or the same
 * state again once all are), the seq one higher.
 */
export function growingSave(c: Contestant) {
  const unanswered = c.questions.find((question) => c.answers[question.id] === undefined);
  if (unanswered) c.answers[unanswered.id] = unanswered.answers[c.seq % unanswered.answers.length]!.id;
  c.seq += 1;
  return saveOf(c);
}

/** The save's body of a contestant's answers as they stand. */
function saveOf(c: Contestant) {
  return {
    exam_id: c.examId,
    slug: c.slug,
    answers: Object.entries(c.answers).map(([question_id, answer_id]) => ({ question_id: Number(question_id), answer_id })),
    prediction: 1000 + c.index,
    seq: c.seq,
  };
}

/** The next change: question seq mod n gets another option, so that every save differs from the one before. */
function nextChange(c: Contestant) {
  c.seq += 1;
  const question = c.questions[c.seq % c.questions.length]!;
  const round = Math.floor(c.seq / c.questions.length);
  c.answers = { ...c.answers, [question.id]: question.answers[(c.index + round) % question.answers.length]!.id };
  c.sent.set(c.seq, c.answers);
  return saveOf(c);
}

/** Every contestant saves about every `periodMs` until `untilMs` (performance.now()); failed saves are retried sooner, elsewhere. */
export async function runLoad(contestants: Contestant[], balancer: Balancer, tally: Tally, periodMs: number, untilMs: number) {
  await Promise.all(
    contestants.map(async (c) => {
      if (!c.questions.length) return;
      await sleep(Math.random() * periodMs);
      let failures = 0;
      while (performance.now() < untilMs) {
        const began = performance.now();
        const body = nextChange(c);
        const reply = await call(balancer, tally, c, 'POST', '/api/store-answers-exam', body);
        if (reply.ok && reply.json.saved === true) {
          failures = 0;
          c.ackCount += 1;
          const at = performance.now();
          c.ackTimes.push(at);
          c.ackSeqs.push(body.seq);
          c.ackDurations.push(at - began);
          if (body.seq > c.acked.seq) c.acked = { seq: body.seq, answers: c.sent.get(body.seq)! };
          await sleep(Math.max(0, periodMs - (performance.now() - began)));
        } else {
          await backoff(failures++);
        }
      }
    }),
  );
}

/** Every contestant submits its last state (one more seq), retrying for up to `deadlineMs`; returns how many did. */
export async function submitAll(contestants: Contestant[], balancer: Balancer, tally: Tally, deadlineMs: number): Promise<number> {
  let submitted = 0;
  await eachLimited(contestants, 50, async (c) => {
    if (!c.questions.length) return;
    const body = nextChange(c);
    const reply = await callUntil(balancer, tally, c, deadlineMs, 'POST', '/api/submit-exam', () => body);
    if (reply?.json.submited === true) {
      submitted += 1;
      c.submitted = { seq: body.seq, answers: c.sent.get(body.seq)! };
    }
  });
  return submitted;
}
