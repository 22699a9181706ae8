// Integrity screening benchmark (issue 25.2, decision 027): a synthetic province on PostgreSQL with
// planted copying pairs and planted fast exams; the detection power by copy rate, the false
// positives on clean pairs, and the time of the whole screening.
//
//   npm run bench:integrity -- [--contestants 200000] [--exams 500000] [--bank 60] [--pairs 40] [--fast 100] [--rate 1] [--seed 1]
//                              [--keys after_submit|after_exam_window]
//
// In a fresh database on the PostgreSQL server named by BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres; loopback only), dropped at the end unless
// BENCH_KEEP=1:
//   1. migrations and the demo content (9 books); each book's bank replaced by --bank questions of
//      4 answers, difficulty b ~ N(0, 1), the three wrong answers unequally attractive (weights
//      drawn per question: one distractor usually draws most of the wrong answers);
//   2. --contestants pupils in schools of 330 (5 grades of 2 classes of 33), every tenth pupil a
//      sibling of the previous one (one parent account); each pupil reads one of its grade's books,
//      has an ability θ ~ N(0.3, 1) and takes 2 or 3 attempts (--exams in all); each attempt draws
//      20 of the bank at random in a random order, answers by a Rasch model (right with probability
//      1 / (1 + e^(b − θ))), a wrong answer by the distractor weights, 2 % blank; answers every
//      20-60 s in its order (answer_times, the login of its account). Three classes of ten take
//      their first attempt together at school, honestly: the starts within 3 minutes, each pupil
//      on a login of its own (the in-step test's clean overlapping pairs). Foreign keys and
//      triggers are off for the generation only (session_replication_role): the owners are not
//      what is measured;
//   3. planted: --pairs copying pairs per copy rate (30, 50, 70, 90, 100 %) among classmates reading
//      the same book, half siblings of one account (close tier), half not (class tier), and in each
//      a third of them of each kind: side by side on every attempt both take, side by side on the
//      first attempt only, afterwards on every attempt. The copier's attempt k takes the source's
//      attempt k's answer on each question both drew with that probability, either saving each
//      copied answer 3-20 s after the source saved it (starting within a minute of the source, its
//      other answers at its own pace) or, after the source had finished, at its own pace (no time trace):
//      with --keys after_submit (the default, the season's setting of issue 40) what the source's
//      finished review shows, the correct answer; with after_exam_window the source's own answer
//      (the review shows no key until the window closes), wrong ones included;
//      --fast exams answered 1-3 s a question, mostly right;
//   4. the screening (screenContest, what the back office runs) at --rate % family-wise, timed,
//      with the load average; then the power per copy rate for each kind and tier and by which
//      test, the false flags among the clean pairs, the calibration of each test's p-values on
//      clean pairs, and the fast exams found; with --keys after_submit, the "key from a review" test
//      (lib/key-from-review.ts, not part of the screening) on the pairs copying afterwards and on a
//      sample of clean pairs.
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/server/lib/seeded-random';
import { screenContest } from '../src/server/features/admin/integrity/screen';
import { fmt, openScratchDatabase, seconds } from './lib/bench-scratch';
import { keyFromReviewP, type ReviewedExam } from './lib/key-from-review';

const { values: options } = parseArgs({
  options: {
    contestants: { type: 'string', default: '200000' },
    exams: { type: 'string' },
    bank: { type: 'string', default: '60' },
    pairs: { type: 'string', default: '60' },
    fast: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
    keys: { type: 'string', default: 'after_submit' },
  },
});
const int = (name: string, value: string | undefined, min: number, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}`);
  return n;
};
const contestants = int('contestants', options.contestants, 500, 1_000_000);
const exams = int('exams', options.exams ?? String(Math.round(contestants * 2.5)), contestants * 2, contestants * 3);
const bankSize = int('bank', options.bank, 20, 200);
const pairsPerRate = int('pairs', options.pairs, 1, 1000);
const fastCount = int('fast', options.fast, 0, 10_000);
const familyRate = Number(options.rate) / 100;
if (!(familyRate >= 0.001 && familyRate <= 0.1)) throw new Error('--rate must be in 0.1..10 (%)');
const seed = int('seed', options.seed, 0, 1_000_000);
/** When the result review shows the correct answers (issue 40): what a pupil copying afterwards can copy. */
const keysShown = options.keys;
if (keysShown !== 'after_submit' && keysShown !== 'after_exam_window') throw new Error('--keys must be after_submit or after_exam_window');
const COPY_RATES = [0.3, 0.5, 0.7, 0.9, 1];
/** Classes of every ten whose first attempts start within 3 minutes of each other (at school), without copying: the in-step test's clean overlapping pairs. */
const TOGETHER_CLASSES = 3;
/** A pupil's own login (a school computer, a copier's own device): its contestant id plus this. */
const OWN_LOGIN = 2_000_000;
/** side: side by side on every attempt both take; once: side by side on the first attempt only; after: afterwards, on every attempt. */
const KINDS = ['side', 'once', 'after'] as const;
const KIND_LABELS: Record<(typeof KINDS)[number], string> = {
  side: 'side by side on every attempt (copied answers 3-20 s after the source)',
  once: 'side by side on the first attempt only',
  after: 'afterwards, on every attempt (no time trace)',
};
type Kind = (typeof KINDS)[number];
const TIERS = ['close', 'class'] as const;
const TESTS = ['similarity', 'in_step'] as const;



const next = seededRandom(seed);

const scratch = await openScratchDatabase('bench_integrity');
const { handle, client, contestId, step } = scratch;
try {
  await client.query('SELECT setseed($1)', [(seed % 1000) / 1000]);
  console.log(`Generating ${fmt(contestants, 0)} contestants, ${fmt(exams, 0)} finished exams, banks of ${bankSize} questions (9 books)`);
  await client.query('SET session_replication_role = replica');
  await step('demo exams and pupils removed', 'DELETE FROM exams; DELETE FROM contestants');
  await step('old banks removed', 'DELETE FROM questions');
  await step('questions', `INSERT INTO questions (book_id, value) SELECT b.id, 'Câu hỏi ' || i || ' của sách ' || b.position FROM books b, generate_series(1, $1::int) i ORDER BY b.id, i`, [bankSize]);
  await step('answers', `INSERT INTO answers (question_id, value, is_correct) SELECT q.id, 'Đáp án ' || a, a = 1 FROM questions q, generate_series(1, 4) a ORDER BY q.id, a`);
  // The bank as the generator reads it: per book (0..8) the questions with their answer ids (the
  // key first), a difficulty and the cumulative weights of the three wrong answers.
  await step(
    'bank',
    `CREATE TEMP TABLE bank AS
     SELECT (SELECT count(*) FROM books b2 WHERE b2.position < b.position)::int AS book, q.book_id, q.id,
            (SELECT array_agg(a.id ORDER BY a.id) FROM answers a WHERE a.question_id = q.id) AS ids,
            sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS difficulty, w.w1 / w.total AS c1, (w.w1 + w.w2) / w.total AS c2
     FROM questions q JOIN books b ON b.id = q.book_id
     CROSS JOIN LATERAL (SELECT -ln(1 - random()) ^ 2 + 0 * q.id AS w1, -ln(1 - random()) ^ 2 + 0 * q.id AS w2, -ln(1 - random()) ^ 2 + 0 * q.id AS w3) w0
     CROSS JOIN LATERAL (SELECT w0.w1, w0.w2, w0.w1 + w0.w2 + w0.w3 AS total) w`,
  );
  await client.query('CREATE INDEX ON bank (book); ANALYZE bank');
  // Pupil i (from 1): school i / 330, grade (i mod 330) / 66 (1..5), class A or B of 33; one of two
  // books of the grade (grade 5: the ninth), the same for every attempt; every tenth pupil shares
  // the parent account of the previous one.
  await step(
    'contestants',
    // contest_id named: the triggers that fill it (0033_seasons.sql) are off in this session.
    `INSERT INTO contestants (id, contest_id, user_id, position, fullname, district_id, school_id, class_group_id, class_room_other)
     SELECT i, $2, i - (CASE WHEN i % 10 = 1 THEN 1 ELSE 0 END) + 1000000, 1 + (CASE WHEN i % 10 = 1 THEN 1 ELSE 0 END), 'Học sinh ' || i, 1,
            100000 + i / 330, 1, (1 + (i % 330) / 66) || CASE WHEN (i % 66) < 33 THEN 'A' ELSE 'B' END
     FROM generate_series(1, $1::int) i`,
    [contestants, contestId],
  );
  await step(
    'pupils',
    `CREATE TEMP TABLE pupil AS
     SELECT c.id, c.user_id, LEAST(8, 2 * ((c.id % 330) / 66) + (c.id / 330 + c.id / 7) % 2) AS book,
            0.3 + sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS theta,
            CASE WHEN c.id <= ($2::int - 2 * $1::int) THEN 3 ELSE 2 END AS attempts,
            -- A class (33 pupils in a row) of every ten takes its first attempt together at school
            -- (TOGETHER_CLASSES): its own hour in the 10 days, each pupil on a school computer (a login of its own).
            abs(hashint4(c.id / 33 + 7)) % 10 < $3::int AS together, (abs(hashint4(c.id / 33)) % 864000)::float8 AS class_start
     FROM contestants c`,
    [contestants, exams, TOGETHER_CLASSES],
  );
  await client.query('ANALYZE pupil');
  await step(
    'exams',
    `INSERT INTO exams (slug, contest_id, contestant_id, user_id, book_id, attempt, status, start_time, end_time, questions, answer_key,
                        answers, answer_options, saved_at, submitted_at, correct_count, points, duration_seconds, answer_times)
     SELECT 'bench-integrity-' || p.id || '-' || a, $1, p.id, p.user_id, bk.book_id, a, 1,
            s.start, s.start + interval '20 minutes', '[]'::jsonb, d.key, COALESCE(d.answers, '{}'::jsonb), '{}',
            s.start + interval '15 minutes', s.start + interval '15 minutes', d.correct, LEAST(100, 5 * d.correct), 900,
            COALESCE(d.times, '{}'::jsonb) || jsonb_build_object('s', CASE WHEN a = 1 AND p.together THEN p.id + ${OWN_LOGIN} ELSE p.user_id END)
     FROM pupil p
     CROSS JOIN generate_series(1, 3) a
     CROSS JOIN LATERAL (SELECT book_id FROM bank WHERE bank.book = p.book LIMIT 1) bk
     CROSS JOIN LATERAL (
       SELECT now() - interval '12 days' + (CASE WHEN a = 1 AND p.together THEN p.class_start + random() * 180 ELSE random() * 10 * 86400 END + 0 * p.id + 0 * a) * interval '1 second' AS start
     ) s
     CROSS JOIN LATERAL (
       SELECT jsonb_object_agg(c.id, c.ids[1]) AS key,
              jsonb_object_agg(c.id, c.chosen) FILTER (WHERE c.chosen IS NOT NULL) AS answers,
              jsonb_object_agg(c.id || ':' || c.chosen, floor(extract(epoch FROM s.start) + c.at)) FILTER (WHERE c.chosen IS NOT NULL) AS times,
              count(*) FILTER (WHERE c.chosen = c.ids[1])::int AS correct
       FROM (
         SELECT q.id, q.ids, 40 * row_number() OVER () + 20 * random() AS at,
                CASE WHEN random() < 0.02 THEN NULL
                     WHEN random() < 1 / (1 + exp(q.difficulty - p.theta)) THEN q.ids[1]
                     ELSE (SELECT CASE WHEN u < q.c1 THEN q.ids[2] WHEN u < q.c2 THEN q.ids[3] ELSE q.ids[4] END FROM (SELECT random() + 0 * q.id AS u) r) END AS chosen
         FROM (SELECT * FROM bank WHERE bank.book = p.book ORDER BY random() + 0 * p.id + 0 * a LIMIT 20) q
       ) c
     ) d
     WHERE a <= p.attempts`,
    [contestId],
  );
  await client.query('RESET session_replication_role');

  // Planted copying: classmates i and i + 1 reading the same book, both of one class, spread over
  // the province; half of each rate's pairs are siblings of one parent account (the close tier),
  // half are not (the class tier); in each, half copy side by side, half afterwards. The copier's
  // first attempt takes the source's answer on each common question with the copy rate's probability.
  const { rows: candidates } = await client.query<{ source: number; copier: number; close: boolean }>(
    `SELECT a.id AS source, b.id AS copier, a.user_id = b.user_id AS close FROM pupil a JOIN pupil b ON b.id = a.id + 1 AND b.book = a.book
     JOIN contestants ca ON ca.id = a.id JOIN contestants cb ON cb.id = b.id
     WHERE ca.class_room_other = cb.class_room_other AND ca.school_id = cb.school_id AND a.id % 4 = 2`,
  );
  const pools = { close: candidates.filter((c) => c.close), class: candidates.filter((c) => !c.close) };
  const chosen: { source: number; copier: number; rate: number; tier: 'close' | 'class'; kind: Kind }[] = [];
  const used = new Set<number>();
  for (const rate of COPY_RATES) {
    for (const tier of TIERS) {
      const pool = pools[tier];
      const wanted = tier === 'close' ? Math.ceil(pairsPerRate / 2) : Math.floor(pairsPerRate / 2);
      let placed = 0;
      while (placed < wanted && pool.some((c) => !used.has(c.source))) {
        const pick = pool[Math.floor(next() * pool.length)]!;
        if (used.has(pick.source)) continue;
        used.add(pick.source);
        chosen.push({ source: pick.source, copier: pick.copier, rate, tier, kind: KINDS[placed % KINDS.length]! });
        placed += 1;
      }
    }
  }
  const started = performance.now();
  const planted: { source: number; copier: number; rate: number; tier: 'close' | 'class'; kind: Kind; attempts: number; common: number; copied: number }[] = [];
  const uniform = (low: number, high: number) => low + (high - low) * next();
  type ExamRow = { id: number; contestant_id: number; attempt: number; answers: Record<string, number>; answer_key: Record<string, number>; answer_times: Record<string, number>; start: number };
  /** The copier's exam rewritten to copy the source's at the pair's rate and kind; returns its common and copied questions. */
  const copyExam = async (pair: (typeof chosen)[number], source: ExamRow, copier: ExamRow) => {
    // When the source saved each of its answers.
    const sourceSeconds = new Map<string, number>();
    for (const [key, at] of Object.entries(source.answer_times)) if (key !== 's' && source.answers[key.split(':')[0]!] === Number(key.split(':')[1])) sourceSeconds.set(key.split(':')[0]!, at);
    const answers = { ...copier.answers };
    const copiedQuestions = new Set<string>();
    let common = 0;
    for (const question of Object.keys(copier.answer_key)) {
      if (!(question in source.answer_key)) continue;
      common += 1;
      if (next() < pair.rate) {
        copiedQuestions.add(question);
        // Afterwards with the keys shown after the submit, the source's review gives the correct answer.
        const copied = pair.kind === 'after' && keysShown === 'after_submit' ? source.answer_key[question] : source.answers[question];
        if (copied === undefined) delete answers[question];
        else answers[question] = copied;
      }
    }
    // The copier's own paper order (shuffled per exam) and its times.
    const order = Object.keys(answers);
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const times: Record<string, number> = {};
    let start: number;
    if (pair.kind !== 'after') {
      // Side by side: the copier starts within a minute of the source; each copied answer is saved
      // 3-20 s after the source's; its other answers at its own pace (20-60 s each). Merged in time
      // order, that is the copier's own answering order; equal seconds move the own answer on.
      start = Math.round(source.start + uniform(-60, 20));
      const at = new Map<string, number>();
      let own = start;
      for (const question of order) {
        if (copiedQuestions.has(question) && sourceSeconds.has(question)) at.set(question, sourceSeconds.get(question)! + Math.floor(uniform(3, 21)));
        else at.set(question, Math.floor((own += uniform(20, 60))));
      }
      const taken = new Set<number>();
      for (const question of [...at.keys()].sort((x, y) => at.get(x)! - at.get(y)! || Number(copiedQuestions.has(y)) - Number(copiedQuestions.has(x)))) {
        let second = at.get(question)!;
        while (taken.has(second)) second += 1;
        taken.add(second);
        times[`${question}:${answers[question]}`] = second;
      }
      times.s = pair.copier + OWN_LOGIN;
    } else {
      // Afterwards: once the source has finished (within 2 days), at the copier's own pace: no time trace.
      start = Math.round(Math.max(...sourceSeconds.values(), source.start) + uniform(600, 2 * 86400));
      order.forEach((question, k) => (times[`${question}:${answers[question]}`] = Math.floor(start + 40 * (k + 1))));
      times.s = copier.answer_times.s!;
    }
    const last = Math.max(start, ...Object.entries(times).filter(([key]) => key !== 's').map(([, at]) => at));
    const correct = Object.entries(answers).filter(([q, a]) => copier.answer_key[q] === a).length;
    await client.query(
      `UPDATE exams SET answers = $2, answer_times = $3, correct_count = $4, points = $5, start_time = to_timestamp($6), end_time = to_timestamp($6) + interval '20 minutes',
              submitted_at = to_timestamp(LEAST($7::float8 + 10, $6::float8 + 1190)), saved_at = to_timestamp(LEAST($7::float8 + 10, $6::float8 + 1190)), duration_seconds = LEAST($7::int + 10 - $6::int, 1190)
       WHERE id = $1`,
      [copier.id, JSON.stringify(answers), JSON.stringify(times), correct, 5 * correct, start, last],
    );
    return { common, copied: copiedQuestions.size };
  };
  for (const pair of chosen) {
    const { rows } = await client.query<ExamRow>(
      `SELECT id, contestant_id, attempt, answers, answer_key, answer_times, extract(epoch FROM start_time)::float8 AS start FROM exams WHERE contestant_id IN ($1, $2) ORDER BY attempt`,
      [pair.source, pair.copier],
    );
    const total = { attempts: 0, common: 0, copied: 0 };
    for (const attempt of [1, 2, 3]) {
      if (pair.kind === 'once' && attempt > 1) break;
      const source = rows.find((row) => row.contestant_id === pair.source && row.attempt === attempt);
      const copier = rows.find((row) => row.contestant_id === pair.copier && row.attempt === attempt);
      if (!source || !copier) break;
      const { common, copied } = await copyExam(pair, source, copier);
      total.attempts += 1;
      total.common += common;
      total.copied += copied;
    }
    planted.push({ source: pair.source, copier: pair.copier, rate: pair.rate, tier: pair.tier, kind: pair.kind, ...total });
  }
  // Planted fast exams: every answer 1-3 s after the previous one, 85 % right.
  const { rows: fastRows } = await client.query<{ id: number; answer_key: Record<string, number>; answer_times: Record<string, number>; start: number }>(
    `SELECT id, answer_key, answer_times, extract(epoch FROM start_time)::float8 AS start FROM exams WHERE attempt = 2 AND contestant_id % 97 = 5 ORDER BY id LIMIT $1`,
    [fastCount],
  );
  const fastIds = new Set<number>();
  for (const row of fastRows) {
    const answers: Record<string, number> = {};
    const times: Record<string, number> = { s: row.answer_times.s! };
    let at = row.start;
    for (const [question, key] of Object.entries(row.answer_key)) {
      at += 1 + 2 * next();
      answers[question] = next() < 0.85 ? key : key + 1;
      times[`${question}:${answers[question]}`] = Math.floor(at);
    }
    const correct = Object.entries(answers).filter(([q, a]) => row.answer_key[q] === a).length;
    await client.query('UPDATE exams SET answers = $2, answer_times = $3, correct_count = $4, points = $5 WHERE id = $1', [row.id, JSON.stringify(answers), JSON.stringify(times), correct, 5 * correct]);
    fastIds.add(row.id);
  }
  console.log(`  planted: ${planted.length} copying pairs, ${fastIds.size} fast exams in ${seconds(performance.now() - started)}`);
  await step('analyze', 'ANALYZE exams; ANALYZE contestants');

  console.log(`Screening at a family-wise rate of ${fmt(familyRate * 100, 1)} %, correct answers shown ${keysShown === 'after_submit' ? 'after the submit' : 'after the exam window'} (load average ${loadavg().map((x) => fmt(x, 2)).join(' ')})`);
  // The app's own thread meanwhile (the pass runs in a worker): how long a request would wait for it.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const begun = performance.now();
  const result = await handle.db.transaction().execute((trx) => screenContest(trx, contestId, familyRate, handle.db));
  const elapsed = performance.now() - begun;
  delay.disable();
  console.log(`  whole screening: ${seconds(elapsed)} (target < 60 s at 200,000 contestants / 500,000 exams); load average after ${loadavg().map((x) => fmt(x, 2)).join(' ')}`);
  console.log(`  the app thread's event-loop delay meanwhile: p99 ${fmt(delay.percentile(99) / 1e6, 1)} ms, max ${fmt(delay.max / 1e6, 1)} ms`);
  console.log(`  ${fmt(result.exams, 0)} exams, ${fmt(result.pairs, 0)} pairs in contact compared, Tarone's K = ${fmt(result.tests, 0)} tests in all`);
  for (const test of TESTS) {
    for (const tier of TIERS) {
      const f = result.families[test][tier];
      console.log(
        `    ${test} / ${tier}: ${fmt(f.pairs, 0)} pairs${test === 'in_step' ? ' overlapping in time' : ''}, ${fmt(f.directions, 0)} directions, K = ${fmt(f.tests, 0)}, threshold p <= ${f.threshold.toExponential(2)}`,
      );
    }
  }

  // By pair of contestants: a planted pair is found when any flag names the two (any attempt, either test).
  const pairKey = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  const flagsByPair = new Map<string, string[]>();
  for (const flag of result.flags.filter((flag) => flag.kind === 'similarity')) {
    const key = pairKey(flag.contestant_id, flag.other_contestant_id!);
    flagsByPair.set(key, [...new Set([...(flagsByPair.get(key) ?? []), ...(flag.evidence.tests as string[])])]);
  }
  const plantedKeys = new Set(planted.map((pair) => pairKey(pair.source, pair.copier)));
  const found = (pair: (typeof planted)[number]) => flagsByPair.get(pairKey(pair.source, pair.copier));
  const hits = (group: typeof planted, by?: string) => group.filter((pair) => (by ? found(pair)?.includes(by) : found(pair))).length;
  const share = (group: typeof planted) => `${hits(group)} / ${group.length}`;
  console.log('Detection power by copy rate (planted pairs flagged; in brackets: by the in-step test / by similarity)');
  for (const kind of KINDS) {
    const ofKind = planted.filter((pair) => pair.kind === kind);
    console.log(`  ${KIND_LABELS[kind]}: ${fmt(ofKind.reduce((sum, pair) => sum + pair.attempts, 0) / Math.max(1, ofKind.length), 1)} attempts copied a pair, ${fmt(ofKind.reduce((sum, pair) => sum + pair.common, 0) / Math.max(1, ofKind.length), 1)} common questions over them`);
    for (const rate of COPY_RATES) {
      const cells = TIERS.map((tier) => {
        const group = planted.filter((pair) => pair.kind === kind && pair.rate === rate && pair.tier === tier);
        return `${tier} ${share(group)} (${hits(group, 'in_step')} / ${hits(group, 'similarity')})`;
      });
      console.log(`    ${fmt(rate * 100, 0).padStart(3)} %: ${cells.join(', ')}`);
    }
    const strong = planted.filter((pair) => pair.kind === kind && pair.rate >= 0.7);
    const strongFound = strong.filter((pair) => found(pair)).length;
    console.log(`    copying >= 70 %: ${strongFound} / ${strong.length} = ${fmt((100 * strongFound) / Math.max(1, strong.length), 0)} % (target >= 90 %); ${TIERS.map((tier) => `${tier} ${share(strong.filter((pair) => pair.tier === tier))}`).join(', ')}`);
  }
  // How far the planted pairs are from their threshold: the median p of each test (1: not computed or above the rate).
  for (const test of TESTS) {
    const pOf = new Map<string, number>();
    for (const c of result.candidates.filter((c) => c.test === test)) {
      const key = pairKey(...c.contestants);
      pOf.set(key, Math.min(c.p, pOf.get(key) ?? 1));
    }
    for (const kind of KINDS) {
      for (const tier of TIERS) {
        const ps = planted
          .filter((pair) => pair.kind === kind && pair.tier === tier && pair.rate >= 0.7)
          .map((pair) => pOf.get(pairKey(pair.source, pair.copier)) ?? 1)
          .sort((x, y) => x - y);
        if (ps.length) console.log(`  ${test}, ${kind}, ${tier}, copying >= 70 %: median p ${ps[Math.floor(ps.length / 2)]!.toExponential(1)}, smallest ${ps[0]!.toExponential(1)} (threshold ${result.families[test][tier].threshold.toExponential(1)})`);
      }
    }
  }

  // The ceiling of ANY test for copying afterwards. Without a time trace, copying shows only in the
  // copier's answers to the questions its exams share with the source's; under no copying those
  // answers are independent given the pupil's ability (the generator's own model, with the true θ,
  // difficulties and distractor weights). A valid test at level α can flag an outcome x only if
  // P0(x) ≤ α (else its rejection region alone would exceed α), so the share of pairs with
  // P0(x) ≤ threshold bounds the power of every test, one that knew each pupil's ability included.
  const afterwards = planted.filter((pair) => pair.kind === 'after' && pair.rate >= 0.7);
  const { rows: ceilings } = await client.query<{ copier: number; log10_p0: number }>(
    `SELECT p.copier, sum(log(CASE WHEN x.answer IS NULL THEN 0.02
                                 WHEN x.answer = bk.ids[1] THEN 0.98 * x.right_chance
                                 WHEN x.answer = bk.ids[2] THEN 0.98 * (1 - x.right_chance) * bk.c1
                                 WHEN x.answer = bk.ids[3] THEN 0.98 * (1 - x.right_chance) * (bk.c2 - bk.c1)
                                 ELSE 0.98 * (1 - x.right_chance) * (1 - bk.c2) END))::float8 AS log10_p0
     FROM unnest($1::int[], $2::int[]) AS p(source, copier)
     JOIN pupil pc ON pc.id = p.copier
     JOIN exams ec ON ec.contestant_id = p.copier
     JOIN exams es ON es.contestant_id = p.source AND es.attempt = ec.attempt
     CROSS JOIN LATERAL jsonb_object_keys(ec.answer_key) k(q)
     JOIN bank bk ON bk.id = k.q::int
     CROSS JOIN LATERAL (SELECT (ec.answers ->> k.q)::int AS answer, 1 / (1 + exp(bk.difficulty - pc.theta)) AS right_chance) x
     WHERE es.answer_key ? k.q
     GROUP BY p.copier`,
    [afterwards.map((pair) => pair.source), afterwards.map((pair) => pair.copier)],
  );
  const p0 = new Map(ceilings.map((row) => [row.copier, row.log10_p0]));
  for (const tier of TIERS) {
    const logs = afterwards.filter((pair) => pair.tier === tier).map((pair) => p0.get(pair.copier) ?? 0).sort((x, y) => x - y);
    const threshold = Math.log10(result.families.similarity[tier].threshold);
    const within = (factor: number) => logs.filter((log) => log <= threshold + Math.log10(factor)).length;
    console.log(
      `  ceiling of any test, afterwards, ${tier}, copying >= 70 %: P0 of the copied answers median 1e${fmt(logs[Math.floor(logs.length / 2)] ?? 0, 1)}, smallest 1e${fmt(logs[0] ?? 0, 1)}; ` +
        `flaggable at the threshold ${within(1)} / ${logs.length}, at 10 times it ${within(10)} / ${logs.length}`,
    );
  }

  // The "key from a review" test (issue 40.3, scripts/lib/key-from-review.ts): measured here, built
  // into the screening only if it flags at least half of the pairs copying the key afterwards. Its
  // power is read against the similarity family's threshold of the tier, which is generous (a test
  // of its own would be a fifth family and lower every threshold), and against a Bonferroni
  // threshold of its own family (a fifth of the rate over both directions of every pair in contact);
  // its calibration on a sample of clean classmates and siblings (pupils 4k and 4k + 1, never planted).
  if (keysShown === 'after_submit') {
    const examsOf = async (ids: number[]) => {
      const { rows } = await client.query<{ contestant_id: number; start: number; submitted: number | null; answers: Record<string, number>; answer_key: Record<string, number> }>(
        `SELECT contestant_id, extract(epoch FROM start_time)::float8 AS start, extract(epoch FROM submitted_at)::float8 AS submitted, answers, answer_key
         FROM exams WHERE contestant_id = ANY($1::int[])`,
        [ids],
      );
      const byContestant = new Map<number, ReviewedExam[]>();
      for (const row of rows) byContestant.set(row.contestant_id, [...(byContestant.get(row.contestant_id) ?? []), { start: row.start, submitted: row.submitted, answers: row.answers, key: row.answer_key }]);
      return byContestant;
    };
    const plantedExams = await examsOf(afterwards.flatMap((pair) => [pair.source, pair.copier]));
    const { rows: cleanPairs } = await client.query<{ a: number; b: number; close: boolean }>(
      `SELECT a.id AS a, b.id AS b, a.user_id = b.user_id AS close FROM pupil a JOIN pupil b ON b.id = a.id + 1 AND b.book = a.book
       JOIN contestants ca ON ca.id = a.id JOIN contestants cb ON cb.id = b.id
       WHERE ca.class_room_other = cb.class_room_other AND ca.school_id = cb.school_id AND a.id % 4 = 0 ORDER BY a.id LIMIT 20000`,
    );
    const cleanExams = await examsOf(cleanPairs.flatMap((pair) => [pair.a, pair.b]));
    for (const reviews of ['all', 'latest'] as const) for (const tier of TIERS) {
      const generous = result.families.similarity[tier].threshold;
      const own = familyRate / 5 / Math.max(1, 2 * result.families.similarity[tier].pairs);
      const ps = afterwards
        .filter((pair) => pair.tier === tier)
        .map((pair) => keyFromReviewP(plantedExams.get(pair.copier) ?? [], plantedExams.get(pair.source) ?? [], reviews) ?? 1)
        .sort((x, y) => x - y);
      const clean = cleanPairs
        .filter((pair) => pair.close === (tier === 'close'))
        .flatMap((pair) => [keyFromReviewP(cleanExams.get(pair.b) ?? [], cleanExams.get(pair.a) ?? [], reviews), keyFromReviewP(cleanExams.get(pair.a) ?? [], cleanExams.get(pair.b) ?? [], reviews)])
        .filter((p): p is number => p !== null);
      const levels = [1e-2, 1e-3, 1e-4].map((level) => `p <= ${level.toExponential(0)}: ${clean.filter((p) => p <= level).length} (about ${fmt(clean.length * level, 1)} expected)`);
      console.log(
        `  key from a review (${reviews === 'all' ? 'every review before' : 'the latest review before'}), afterwards, ${tier}, copying >= 70 %: median p ${(ps[Math.floor(ps.length / 2)] ?? 1).toExponential(1)}, smallest ${(ps[0] ?? 1).toExponential(1)}; ` +
          `flagged at the similarity threshold (${generous.toExponential(1)}) ${ps.filter((p) => p <= generous).length} / ${ps.length}, at its own family's (${own.toExponential(1)}) ${ps.filter((p) => p <= own).length} / ${ps.length}; ` +
          `clean directions ${clean.length}: ${levels.join(', ')}, smallest ${Math.min(1, ...clean).toExponential(1)}`,
      );
    }
  }

  const falseFlags = [...flagsByPair].filter(([key]) => !plantedKeys.has(key));
  console.log(
    `False positives on clean pairs: ${falseFlags.length} pairs of contestants flagged (of ${fmt(result.pairs, 0)} pairs of exams in contact, ${planted.length} pairs of contestants planted) ` +
      `(by similarity ${falseFlags.filter(([, tests]) => tests.includes('similarity')).length}, by the in-step test ${falseFlags.filter(([, tests]) => tests.includes('in_step')).length}; family-wise target: no flag in at least ${fmt(100 - familyRate * 100, 1)} % of runs)`,
  );
  // Calibration: clean directions with p at or below a level, against the directions computed times the level (an upper bound of the expected count).
  for (const test of TESTS) {
    for (const tier of TIERS) {
      const f = result.families[test][tier];
      const clean = result.candidates.filter((c) => c.test === test && c.tier === tier && !plantedKeys.has(pairKey(...c.contestants)));
      const plantedHere = planted.filter((pair) => pair.tier === tier).length;
      const directions = Math.max(0, f.directions - 2 * plantedHere);
      const levels = [1e-3, 1e-4, 1e-5].map((level) => `p <= ${level.toExponential(0)}: ${clean.filter((c) => c.p <= level).length} (at most ${fmt(directions * level, 1)})`);
      console.log(`  ${test} / ${tier}: ${clean.filter((c) => c.p <= f.threshold).length} flagged; clean ${levels.join(', ')} expected`);
    }
  }
  const fastFound = result.flags.filter((flag) => flag.kind === 'speed' && fastIds.has(flag.exam_id)).length;
  const fastOthers = result.flags.filter((flag) => flag.kind === 'speed' && !fastIds.has(flag.exam_id)).length;
  console.log(`Fast exams found: ${fastFound} / ${fastIds.size}; other exams flagged as fast: ${fastOthers}`);
  console.log(`Lockstep pairs flagged: ${result.flags.filter((flag) => flag.kind === 'lockstep').length} (none planted; siblings share a login)`);
} finally {
  await scratch.close();
}
