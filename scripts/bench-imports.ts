// Imports from strangers (issue 21): does an import slow the exam saves of the same process?
//
//   npm run bench:imports -- [--contestants 200] [--rate 100] [--baseline 10]
//
// One app process (NODE_ENV=production, the compiled server built at the start) on a fresh PostgreSQL database made (and dropped at the
// end) on the server named by BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// A steady background runs all along: --contestants contestants with exams in progress saving at
// --rate saves/s in all (open loop) and a /healthz probe every 50 ms. First a baseline of
// --baseline seconds with no import, then one dry-run import at a time by the demo organiser,
// through the real routes: the 1 GB zip bomb, the 1,000,000-row sheet, a valid 20,000-row schools
// sheet, the 9.5 MB GIFT file and a 500,000-row CSV (the files of the API test, made here), then
// the valid sheet once more, stored (the commit of 20,000 schools). For
// each: the import's answer and time, the app's RSS (before / peak / 1 s after, from /proc), and
// /healthz and the saves started while the import ran (p50 / p99 / max, errors). Loopback only.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { bomb, csvOfRows, giftOfBytes, manyRows } from '../src/server/test/import-files';
import { agent, call } from './bench-exam-load';
import { freePort } from './chaos/apps';
import { createContestants } from './chaos/contestants';
import { startExams, steadySaves, type Contestant } from './lib/exam-background';
import { fmt, Stats } from './lib/bench-stats';
import { createLoopbackDatabase, runBenchmark, spawnProductionApp } from './lib/bench-app';

const MB = 1024 * 1024;
const { values: options } = parseArgs({
  options: {
    contestants: { type: 'string', default: '200' },
    rate: { type: 'string', default: '100' },
    baseline: { type: 'string', default: '10' },
  },
});
const bounded = (name: string, value: string | undefined, min: number, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}`);
  return n;
};
const contestantCount = bounded('contestants', options.contestants, 10, 2000);
const savesPerSecond = bounded('rate', options.rate, 1, 1000);
const baselineSeconds = bounded('baseline', options.baseline, 2, 60);

// HTTP: the exam benchmark's client (bench-exam-load.ts) -----------------------------------------

/** A multipart upload (a dry run unless `store`), its body made as one buffer. */
function upload(port: number, path: string, token: string, fileName: string, content: Buffer, store = false) {
  const boundary = `----bench${Date.now()}`;
  const data = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\n${store ? '0' : '1'}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(port, 'POST', path, undefined, token, 60_000, { contentType: `multipart/form-data; boundary=${boundary}`, data });
}

// Measurements -----------------------------------------------------------------------------------

function rssMbOf(pid: number) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

// The app (as in bench-exam.ts) ------------------------------------------------------------------

const children: ChildProcess[] = [];


async function spawnApp(databaseUrl: string): Promise<{ port: number; pid: number }> {
  return spawnProductionApp({ port: await freePort(), databaseUrl, name: 'bench-imports', children });
}



async function main() {
  const scratch = await createLoopbackDatabase('bench_imports');
  const { databaseName, databaseUrl } = scratch;
  const load = loadavg().map((n) => fmt(n, 2)).join(', ');
  console.log(`Imports benchmark: ${contestantCount} contestants saving ${savesPerSecond}/s in all, /healthz every 50 ms; load average ${load}`);
  console.log(`Database ${databaseName} (dropped at the end)`);

  try {
    // The files first: making them is not what is measured.
    const gift = giftOfBytes(9.5 * MB);
    const files: { label: string; path: string; name: string; content: Buffer; store?: boolean }[] = [
      { label: '(a) 1 GB-inflating .xlsx bomb', path: 'schools', name: 'truong.xlsx', content: bomb(1) },
      { label: '(b) 1,000,000-row .xlsx', path: 'schools', name: 'truong.xlsx', content: await manyRows(1_000_000) },
      { label: '(c) valid 20,000-row schools .xlsx', path: 'schools', name: 'truong.xlsx', content: await manyRows(20_000, { legit: true }) },
      { label: `(d) 9.5 MB GIFT (${fmt(gift.questions, 0)} questions)`, path: 'questions', name: 'cau-hoi.gift', content: gift.content },
      { label: '(e) 500,000-row CSV', path: 'schools', name: 'truong.csv', content: csvOfRows(500_000) },
    ];
    // The valid sheet once more, stored this time: the commit (20,000 schools) is measured too.
    const stored = { ...files[2]!, label: '(f) the same 20,000 schools, stored', store: true };

    // Content and contestants straight into the database, set-based (as bench-exam.ts).
    const { openDatabase } = await import('../src/server/db/client');
    const { migrate } = await import('../src/server/db/migrate');
    const { seed } = await import('../src/server/db/seed/seed');
    const { systemClock } = await import('../src/server/lib/clock');
    const database = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 4 });
    await migrate(database.db);
    await seed(database.db, { clock: systemClock, demoWindow: true, demoAccounts: true });
    await database.close();
    // Parents, sessions and contestants set-based, as the chaos check makes them.
    const contestants: Contestant[] = (await createContestants(databaseUrl, contestantCount)).map((c) => ({ ...c, saving: false }));
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const bookId = (await pool.query('SELECT min(id) AS id FROM books WHERE contest_id = (SELECT id FROM contests WHERE is_current)')).rows[0].id as number;
    await pool.query('VACUUM ANALYZE');
    await pool.end();

    const app = await spawnApp(databaseUrl);
    const login = await call(app.port, 'POST', '/api/login', { phone: '0901000009', password: 'bantochuc123' });
    const organiserToken = login.json?.access_token as string;
    if (!organiserToken) throw new Error(`organiser login failed: ${login.status} ${JSON.stringify(login.json).slice(0, 200)}`);
    await startExams(app.port, contestants);
    console.log(`App pid ${app.pid} on :${app.port}; ${contestants.length} exams in progress; idle RSS ${fmt(rssMbOf(app.pid), 0)} MB\n`);

    // The steady background: requests are counted in the phase that was current when they started.
    let phase: { health: Stats; saves: Stats } | undefined;
    const saving = steadySaves(app.port, contestants, savesPerSecond, () => phase?.saves);
    const healthTimer = setInterval(() => {
      const stats = phase?.health;
      const t0 = performance.now();
      call(app.port, 'GET', '/healthz')
        .then((reply) => {
          stats?.latencies.push(performance.now() - t0);
          if (reply.status !== 200) stats?.fail(String(reply.status));
        })
        .catch((error) => stats?.fail(String(error)));
    }, 50);
    let peakRss = 0;
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMbOf(app.pid))), 10);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    const rows: string[] = [];
    try {
      await pause(3000); // warm-up: the routes' first answers
      phase = { health: new Stats(''), saves: new Stats('') };
      peakRss = 0;
      const baselineRss = rssMbOf(app.pid);
      await pause(baselineSeconds * 1000);
      const baseline = phase;
      phase = undefined;
      console.log(`Baseline (${baselineSeconds} s, no import): RSS ${fmt(baselineRss, 0)} -> peak ${fmt(peakRss, 0)} MB`);
      console.log(`  /healthz ${baseline.health.line()}`);
      console.log(`  saves    ${baseline.saves.line()}`);
      rows.push(`baseline: /healthz p99 ${fmt(baseline.health.percentile(99))} ms, saves p99 ${fmt(baseline.saves.percentile(99))} ms`);

      for (const file of [...files, stored]) {
        await pause(2000); // the previous phase's garbage and answers settle
        const path = file.path === 'schools' ? '/api/admin/schools/import' : `/api/admin/books/${bookId}/questions/import`;
        const before = rssMbOf(app.pid);
        peakRss = before;
        phase = { health: new Stats(''), saves: new Stats('') };
        const t0 = performance.now();
        const reply = await upload(app.port, path, organiserToken, file.name, file.content, file.store);
        const ms = performance.now() - t0;
        const during = phase;
        phase = undefined;
        const peak = peakRss;
        await pause(1000);
        const after = rssMbOf(app.pid);
        const answer = `${reply.status} ${reply.json?.code ?? ''} ${String(reply.json?.message ?? '').slice(0, 90)}`.trim();
        console.log(`\n${file.label}, ${fmt(file.content.length / MB)} MB upload: ${answer}, in ${fmt(ms, 0)} ms`);
        console.log(`  app RSS ${fmt(before, 0)} MB before, ${fmt(peak, 0)} MB peak (+${fmt(peak - before, 0)}), ${fmt(after, 0)} MB 1 s after`);
        console.log(`  /healthz ${during.health.line()}`);
        console.log(`  saves    ${during.saves.line()}`);
        for (const sample of [...during.health.samples, ...during.saves.samples]) console.log(`    error sample: ${sample}`);
        rows.push(
          `${file.label}: ${reply.status} in ${fmt(ms, 0)} ms, RSS +${fmt(peak - before, 0)} MB peak; /healthz p99 ${fmt(during.health.percentile(99))} / max ${fmt(during.health.max)} ms; ` +
            `saves p99 ${fmt(during.saves.percentile(99))} / max ${fmt(during.saves.max)} ms, ${during.saves.errors} errors (n ${during.saves.latencies.length})`,
        );
      }
    } finally {
      saving.stop();
      clearInterval(healthTimer);
      clearInterval(rssTimer);
    }
    console.log(`\nSummary (load average at the start ${load}, at the end ${loadavg().map((n) => fmt(n, 2)).join(', ')}; ${saving.skipped()} saves skipped, the contestant's previous save still running)`);
    for (const row of rows) console.log(`  ${row}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await scratch.drop();
    agent.destroy();
  }
}

runBenchmark(main, children);
