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

async function readExams(databaseUrl: string): Promise<Map<number, ExamRow>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<ExamRow>('SELECT id, answers, save_seq, status, points FROM exams');
    return new Map(rows.map((row) => [row.id, row]));
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
