// Question quality benchmark (issue 25.1, decision 021): a province-sized set of finished exams on
// PostgreSQL and the time of the item analysis over it.
//
//   npm run bench:quality -- [--exams 500000]
//
// In a fresh database on the PostgreSQL server named by BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres; loopback only), dropped at the end unless
// BENCH_KEEP=1:
//   1. migrations and the demo content (9 books); each book's bank replaced by 60 questions of 4
//      answers with difficulties b ~ N(0, 1); the first question of each book has a planted wrong
//      key (the pupils' "right" answer is the bank's second answer);
//   2. --exams finished exams in one INSERT ... SELECT (generate_series): each of one book, 20 of
//      its 60 questions drawn at random (each exam its own key, as the exam's draw), an ability θ ~ N(0.3, 1), answers by a Rasch model (right with
//      probability 1 / (1 + e^(b − θ))), 2 % left blank, correct_count and points consistent.
//      Foreign keys and triggers are off for this session only (session_replication_role): the
//      exams' owners are not what is measured;
//   3. the computation: qualityCells over every book in one statement (the target:
//      < 10 s at 500,000 exams), then one statement per book all at once (PostgreSQL does not
//      aggregate these pairs in parallel workers by itself: one backend per book instead), then
//      the page's whole report (bookQuality) for each book in turn, and whether each planted wrong
//      key was flagged.
import { parseArgs } from 'node:util';
import { qualityCells, qualityCellsOfBooks } from '../src/server/features/admin/quality/repo';
import { bookQuality } from '../src/server/features/admin/quality/service';
import { systemClock } from '../src/server/lib/clock';
import { fmt, openScratchDatabase, seconds } from './lib/bench-scratch';

const { values: options } = parseArgs({ options: { exams: { type: 'string', default: '500000' } } });
const exams = Number(options.exams);
if (!Number.isInteger(exams) || exams < 100 || exams > 2_000_000) throw new Error('--exams must be an integer in 100..2000000');



const scratch = await openScratchDatabase('bench_quality');
const { handle, client, contestId, step } = scratch;
try {
  console.log(`Generating ${fmt(exams, 0)} finished exams (9 books x 60 questions)`);
  await client.query('SET session_replication_role = replica');
  await step('old banks removed', 'DELETE FROM questions');
  await step(
    'questions',
    `INSERT INTO questions (book_id, value) SELECT b.id, 'Câu hỏi ' || i || ' của sách ' || b.position FROM books b, generate_series(1, 60) i ORDER BY b.id, i`,
  );
  await step(
    'answers',
    `INSERT INTO answers (question_id, value, is_correct) SELECT q.id, 'Đáp án ' || a, a = 1 FROM questions q, generate_series(1, 4) a ORDER BY q.id, a`,
  );
  // The bank as the generator reads it: per book, the questions by index 0..59 with their answer
  // ids (the key first), a difficulty, and whether the key is planted wrong (index 0).
  await step(
    'bank',
    `CREATE TEMP TABLE bank AS
     SELECT q.book_id, (row_number() OVER (PARTITION BY q.book_id ORDER BY q.id) - 1)::int AS idx, q.id,
            (SELECT array_agg(a.id ORDER BY a.id) FROM answers a WHERE a.question_id = q.id) AS ids,
            sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS difficulty
     FROM questions q`,
  );
  await client.query('CREATE INDEX ON bank (book_id, idx); ANALYZE bank');
  await step(
    'exams',
    `WITH book_order AS (SELECT id, (row_number() OVER (ORDER BY position) - 1)::int AS n FROM books)
     INSERT INTO exams (slug, contest_id, contestant_id, user_id, book_id, attempt, status, start_time, end_time, questions, answer_key,
                        answers, answer_options, saved_at, submitted_at, correct_count, points, duration_seconds)
     SELECT 'bench-quality-' || lpad(e::text, 10, '0'), $2, e, e, b.id, 1, 1,
            now() - interval '2 days', now() - interval '2 days' + interval '30 minutes', '[]'::jsonb, d.key, COALESCE(d.answers, '{}'::jsonb), '{}',
            now() - interval '2 days' + interval '15 minutes', now() - interval '2 days' + interval '15 minutes',
            d.correct, LEAST(100, 5 * d.correct), 900
     FROM generate_series(1, $1::int) e
     JOIN book_order b ON b.n = e % 9
     CROSS JOIN LATERAL (SELECT 0.3 + sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) + 0 * e AS theta) t
     CROSS JOIN LATERAL (
       SELECT jsonb_object_agg(c.id, c.ids[1]) AS key,
              jsonb_object_agg(c.id, c.chosen) FILTER (WHERE c.chosen IS NOT NULL) AS answers,
              count(*) FILTER (WHERE c.chosen = c.ids[1])::int AS correct
       FROM (
         SELECT q.id, q.ids,
                CASE WHEN random() < 0.02 THEN NULL
                     WHEN random() < 1 / (1 + exp(q.difficulty - t.theta)) THEN (CASE WHEN q.idx = 0 THEN q.ids[2] ELSE q.ids[1] END)
                     WHEN q.idx = 0 THEN (ARRAY[q.ids[1], q.ids[3], q.ids[4]])[1 + floor(random() * 3)::int]
                     ELSE q.ids[2 + floor(random() * 3)::int] END AS chosen
         FROM (SELECT * FROM bank WHERE bank.book_id = b.id ORDER BY random() + 0 * e LIMIT 20) q
       ) c
     ) d`,
    [exams, contestId],
  );
  await client.query('RESET session_replication_role');
  await step('analyze', 'ANALYZE exams');

  console.log('Computing');
  let started = performance.now();
  const cells = await qualityCells(handle.db, contestId);
  console.log(`  every book in one statement: ${fmt(cells.length, 0)} count rows in ${seconds(performance.now() - started)}`);
  const books = (await client.query('SELECT id FROM books ORDER BY position')).rows as { id: number }[];
  started = performance.now();
  const perBook = await qualityCellsOfBooks(handle.db, contestId, books.map((book) => book.id));
  console.log(`  every book, one statement per book at once (qualityCellsOfBooks): ${fmt(perBook.length, 0)} count rows in ${seconds(performance.now() - started)} (target < 10 s at 500,000 exams)`);
  started = performance.now();
  let planted = 0;
  let flaggedOthers = 0;
  const deps = { db: handle.db, clock: systemClock };
  for (const book of books) {
    const report = await bookQuality(deps, book.id);
    const first = report.questions.find((row) => row.number === 1)!;
    if (first.flags.some((flag) => flag.kind === 'wrong_key') && first.suspected_answer_id === first.question.answers[1]!.id) planted += 1;
    flaggedOthers += report.questions.filter((row) => row.number !== 1 && row.flags.some((flag) => flag.kind === 'wrong_key')).length;
  }
  console.log(`  the page's report, book by book, computed and stored (first view or "Tính lại"): ${seconds(performance.now() - started)} for ${books.length} books`);
  started = performance.now();
  for (const book of books) await bookQuality(deps, book.id);
  console.log(`  the page's report, book by book, from the stored counts (every other view): ${seconds(performance.now() - started)} for ${books.length} books`);
  console.log(`  planted wrong keys found: ${planted} / ${books.length}; other questions flagged as a wrong key: ${flaggedOthers} / ${books.length * 59}`);
} finally {
  await scratch.close();
}
