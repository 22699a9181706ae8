// The checker of `npm run chaos`: what each contestant was told against the rows in `exams`.
import pg from 'pg';
import type { Answers, Contestant } from './contestants';

interface ExamRow {
  id: number;
  answers: Answers;
  save_seq: string;
  status: number;
  points: number | null;
}

/** `database`: a URL, or a client already connected (the failover drill's, opened before the fault). */
async function readExams(database: string | pg.Client): Promise<Map<number, ExamRow>> {
  const read = async (client: pg.Client) => {
    const { rows } = await client.query<ExamRow>('SELECT id, answers, save_seq, status, points FROM exams');
    return new Map(rows.map((row) => [row.id, row]));
  };
  if (typeof database !== 'string') return read(database);
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return await read(client);
  } finally {
    await client.end();
  }
}

const sameAnswers = (a: Answers, b: Answers) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/**
 * Every acknowledged save is stored: the row's save_seq is at least the highest acknowledged seq,
 * and its answers are those the contestant sent with that save_seq (a save whose answer was lost
 * may have been applied, so any sent save at or above the acknowledged one is a correct state).
 * Returns the contestants whose acknowledged answers are not in the database, with why.
 */
export async function lostSaves(databaseUrl: string, contestants: Contestant[]): Promise<string[]> {
  const rows = await readExams(databaseUrl);
  const lost: string[] = [];
  for (const c of contestants) {
    if (!c.examId) continue;
    const row = rows.get(c.examId);
    const seq = Number(row?.save_seq);
    const sent = c.sent.get(seq);
    if (!row) lost.push(`exam ${c.examId}: no row`);
    else if (seq < c.acked.seq) lost.push(`exam ${c.examId}: stored seq ${seq} < acknowledged ${c.acked.seq}`);
    else if (!sent || !sameAnswers(sent, row.answers)) lost.push(`exam ${c.examId}: stored answers (seq ${seq}) are not those sent with that seq`);
  }
  return lost;
}

/** Exams submitted (status 1) with the submitted answers and a score; returns the problems found. */
export async function unscored(databaseUrl: string, contestants: Contestant[]): Promise<string[]> {
  const rows = await readExams(databaseUrl);
  const problems: string[] = [];
  for (const c of contestants) {
    const row = rows.get(c.examId);
    if (!c.submitted || !row) problems.push(`exam ${c.examId}: not submitted`);
    else if (row.status !== 1 || row.points === null) problems.push(`exam ${c.examId}: status ${row.status}, points ${row.points}`);
    else if (!sameAnswers(row.answers, c.submitted.answers)) problems.push(`exam ${c.examId}: stored answers differ from those submitted`);
  }
  return problems;
}

/**
 * Seconds from `from` until every contestant that saves had an acknowledged save again (the
 * slowest one), or Infinity when one never had.
 */
export function recoverySeconds(contestants: Contestant[], from: number): number {
  let worst = 0;
  for (const c of contestants) {
    if (!c.questions.length) continue;
    const first = c.ackTimes.find((at) => at >= from);
    if (first === undefined) return Infinity;
    worst = Math.max(worst, first - from);
  }
  return worst / 1000;
}

/**
 * The acknowledged saves that `databaseUrl` does not hold, counted one by one: for each contestant,
 * the acknowledged seqs above the row's save_seq (each save carries the whole answer sheet, so a
 * later save makes an earlier lost one good: the failover drill reads the promoted standby before
 * the app writes to it). `contestants` whose stored answers are not what was sent are in `samples`.
 */
export async function acknowledgedNotStored(database: string | pg.Client, contestants: Contestant[]): Promise<{ saves: number; contestants: number; samples: string[] }> {
  const rows = await readExams(database);
  let saves = 0;
  let hit = 0;
  const samples: string[] = [];
  for (const c of contestants) {
    if (!c.examId) continue;
    const row = rows.get(c.examId);
    const stored = row ? Number(row.save_seq) : -1;
    const lost = c.ackSeqs.filter((seq) => seq > stored).length;
    const sent = c.sent.get(stored);
    const wrong = row !== undefined && (!sent || !sameAnswers(sent, row.answers));
    if (lost || wrong) {
      saves += lost;
      hit += 1;
      if (samples.length < 3) samples.push(`exam ${c.examId}: stored seq ${stored}, acknowledged up to ${c.acked.seq}${wrong ? ', stored answers not those sent' : ''}`);
    }
  }
  return { saves, contestants: hit, samples };
}
