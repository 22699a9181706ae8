// Logins under a storm (issue 35, decision 031): is a login served or refused quickly at 1 x and
// 3 x the login capacity, and do the exam saves of the same process stay fast meanwhile?
//
//   npm run bench:logins -- [--factors 1,3] [--seconds 15] [--accounts 3000] [--contestants 200] [--saves 100]
//
// One app process (NODE_ENV=production, the compiled server built at the start) on a fresh PostgreSQL
// database made (and dropped at the end) on the server named by BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres). Parents with a password are made set-based in SQL
// (one scrypt hash for all: a verify costs the same whoever's it is); --contestants more parents
// have an exam in progress and save at --saves saves/s in all (open loop) for the whole run.
// First the saves alone for --seconds, then the login capacity: 4 logins at a time (closed loop) for --seconds; then, for each factor,
// logins offered open loop at factor x capacity for --seconds, each from another account, each timed
// from the moment it was due. Printed per phase: goodput (accepted logins/s, and as a share of the
// capacity), the accepted logins' latency (p50 / p99), the 503s' (time to the refusal, p99), other
// answers, and the saves' latency; at the end the capacity once more. APP_ENV="PASSWORD_HASH_QUEUE_MS=0 ..." passes settings to the app
// (e.g. 0 to see the storm without the hashing queue's bound). Loopback only.
import type { ChildProcess } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PRIVACY_NOTICE_VERSION } from '../src/shared/privacy';
import { agent, call } from './bench-exam-load';
import { freePort } from './chaos/apps';
import { createContestants } from './chaos/contestants';
import { startExams, steadySaves, type Contestant } from './lib/exam-background';
import { fmt, Stats } from './lib/bench-stats';
import { createLoopbackDatabase, runBenchmark, spawnProductionApp } from './lib/bench-app';

const { values: options } = parseArgs({
  options: {
    factors: { type: 'string', default: '1,3' },
    seconds: { type: 'string', default: '15' },
    accounts: { type: 'string', default: '3000' },
    contestants: { type: 'string', default: '200' },
    saves: { type: 'string', default: '100' },
  },
});
const bounded = (name: string, value: string | undefined, min: number, max: number) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number in ${min}..${max}`);
  return n;
};
const factors = (options.factors ?? '1,3').split(',').map((factor) => bounded('factors', factor, 0.1, 20));
const phaseSeconds = bounded('seconds', options.seconds, 3, 120);
const accountCount = Math.round(bounded('accounts', options.accounts, 100, 100_000));
const contestantCount = Math.round(bounded('contestants', options.contestants, 0, 2000));
const savesPerSecond = bounded('saves', options.saves, 0, 1000);
/**
 * Logins at a time while the capacity is measured: more than the hashing threads (1 to 3) and far
 * fewer than the queue holds, so that the hashing queue is never empty and never full (a closed loop
 * that meets 503s would measure how fast it is refused).
 */
const CAPACITY_CONCURRENCY = 4;
const PASSWORD = 'mat-khau-bench-1';

const children: ChildProcess[] = [];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Settings for the app from APP_ENV ("NAME=value NAME=value"). */
function appEnvOverrides(): Record<string, string> {
  const pairs = (process.env.APP_ENV ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

async function spawnApp(databaseUrl: string): Promise<{ port: number; pid: number }> {
  return spawnProductionApp({ port: await freePort(), databaseUrl, name: 'bench-logins', env: appEnvOverrides(), children });
}



/** One phase's logins: accepted (200) and refused (503) timed apart, other answers counted by kind. */
class LoginTally {
  readonly accepted = new Stats('accepted');
  readonly refused = new Stats('503');
  readonly others = new Map<string, number>();
  offered = 0;
  add(status: number, code: string | undefined, ms: number) {
    if (status === 200) this.accepted.latencies.push(ms);
    else if (status === 503) this.refused.latencies.push(ms);
    else {
      const kind = `${status} ${code ?? ''}`.trim();
      this.others.set(kind, (this.others.get(kind) ?? 0) + 1);
    }
  }
  othersLine() {
    return this.others.size ? [...this.others].map(([kind, n]) => `${kind}: ${n}`).join(', ') : 'none';
  }
}

async function main() {
  const scratch = await createLoopbackDatabase('bench_logins');
  const { databaseUrl } = scratch;
  const load = loadavg().map((n) => fmt(n, 2)).join(', ');
  const overrides = process.env.APP_ENV ? `; app settings ${process.env.APP_ENV}` : '';
  console.log(`Logins benchmark: ${accountCount} accounts, factors ${factors.join(', ')} x capacity for ${phaseSeconds} s each; ${contestantCount} contestants saving ${savesPerSecond}/s in all; load average ${load}${overrides}`);

  try {
    const { openDatabase } = await import('../src/server/db/client');
    const { migrate } = await import('../src/server/db/migrate');
    const { seed } = await import('../src/server/db/seed/seed');
    const { systemClock } = await import('../src/server/lib/clock');
    const { hashPassword } = await import('../src/server/lib/password');
    const database = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 4 });
    await migrate(database.db);
    await seed(database.db, { clock: systemClock, demoWindow: true });
    await database.close();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // The parents who log in, set-based: phones 08xxxxxxxx, one hash for all.
    const phones = (
      await pool.query(
        `INSERT INTO users (phone, password_hash, role, privacy_version, privacy_consented_at)
         SELECT '08' || lpad(n::text, 8, '0'), $1, 'parent', $3, now() FROM generate_series(1, $2) AS n
         RETURNING phone`,
        [await hashPassword(PASSWORD), accountCount, PRIVACY_NOTICE_VERSION],
      )
    ).rows.map((row) => row.phone as string);
    const contestants: Contestant[] = contestantCount ? (await createContestants(databaseUrl, contestantCount)).map((c) => ({ ...c, saving: false })) : [];
    await pool.query('VACUUM ANALYZE');
    await pool.end();

    const app = await spawnApp(databaseUrl);
    await startExams(app.port, contestants);
    console.log(`App pid ${app.pid} on :${app.port}; ${contestants.length} exams in progress\n`);

    // The saves all along; each is counted in the phase current when it was due.
    let saves: Stats | undefined;
    const saving = steadySaves(app.port, contestants, savesPerSecond, () => saves);

    let next = 0;
    const nextPhone = () => phones[next++ % phones.length]!;
    /** One login, timed from `dueAt` (performance.now()). */
    const loginOnce = async (tally: LoginTally, dueAt: number) => {
      tally.offered += 1;
      try {
        const reply = await call(app.port, 'POST', '/api/login', { phone: nextPhone(), password: PASSWORD });
        tally.add(reply.status, reply.json?.code, performance.now() - dueAt);
      } catch (error) {
        tally.add(0, String(error).slice(0, 60), performance.now() - dueAt);
      }
    };

    const rows: string[] = [];
    /** CAPACITY_CONCURRENCY logins at a time, closed loop, for --seconds: accepted logins/s. */
    const measureCapacity = async (label: string) => {
      saves = new Stats('saves');
      const capacitySaves = saves;
      const tally = new LoginTally();
      const end = performance.now() + phaseSeconds * 1000;
      const startedAt = performance.now();
      await Promise.all(
        Array.from({ length: CAPACITY_CONCURRENCY }, async () => {
          while (performance.now() < end) {
            const refusedBefore = tally.refused.latencies.length;
            await loginOnce(tally, performance.now());
            if (tally.refused.latencies.length > refusedBefore) await pause(200);
          }
        }),
      );
      saves = undefined;
      const rate = tally.accepted.latencies.length / ((performance.now() - startedAt) / 1000);
      console.log(`${label} (${CAPACITY_CONCURRENCY} at a time, ${phaseSeconds} s): ${fmt(rate)} logins/s; accepted ${tally.accepted.line()}; 503 ${tally.refused.latencies.length}; other ${tally.othersLine()}`);
      console.log(`  saves ${capacitySaves.line()}`);
      for (const sample of capacitySaves.samples) console.log(`    save error sample: ${sample}`);
      rows.push(`${label.toLowerCase()} ${fmt(rate)} logins/s (saves p99 ${fmt(capacitySaves.percentile(99))} ms)`);
      return rate;
    };
    try {
      await pause(2000);
      // Warm-up: the routes' first answers.
      const warm = new LoginTally();
      for (let i = 0; i < 10; i += 1) await loginOnce(warm, performance.now());

      // The saves alone first: what the machine gives them without logins.
      saves = new Stats('saves');
      const alone = saves;
      await pause(phaseSeconds * 1000);
      console.log(`Saves alone (${phaseSeconds} s, no logins): ${alone.line()}`);
      rows.push(`saves alone p99 ${fmt(alone.percentile(99))} ms (${alone.errors} errors)`);

      const capacityRate = await measureCapacity('Capacity');

      for (const factor of factors) {
        await pause(3000); // the previous phase's queue drains
        const rate = factor * capacityRate;
        const tally = new LoginTally();
        saves = new Stats('saves');
        const phaseSaves = saves;
        const began = performance.now();
        const pending: Promise<void>[] = [];
        // Open loop: login k is due at began + k / rate, sent then whatever came back before.
        const total = Math.round(rate * phaseSeconds);
        await new Promise<void>((resolve) => {
          let sent = 0;
          const tick = setInterval(() => {
            const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * rate) + 1);
            for (; sent < due; sent += 1) pending.push(loginOnce(tally, began + (sent / rate) * 1000));
            if (sent >= total) {
              clearInterval(tick);
              resolve();
            }
          }, 5);
        });
        await Promise.all(pending);
        saves = undefined;
        const goodput = tally.accepted.latencies.length / phaseSeconds;
        const accepted = tally.accepted;
        const refused = tally.refused;
        console.log(`\n${factor} x capacity: ${fmt(rate)} logins/s offered for ${phaseSeconds} s (${tally.offered})`);
        console.log(`  accepted ${fmt(goodput)}/s = ${fmt((100 * goodput) / capacityRate, 0)} % of the capacity; ${accepted.line()}`);
        console.log(`  503 ${refused.latencies.length} (${fmt((100 * refused.latencies.length) / Math.max(1, tally.offered), 0)} %): time to the 503 p50 ${fmt(refused.percentile(50))}, p99 ${fmt(refused.percentile(99))}, max ${fmt(refused.max)} ms`);
        console.log(`  other answers: ${tally.othersLine()}`);
        console.log(`  saves ${phaseSaves.line()}`);
        for (const sample of phaseSaves.samples) console.log(`    save error sample: ${sample}`);
        rows.push(
          `${factor} x (${fmt(rate)}/s): accepted ${fmt(goodput)}/s (${fmt((100 * goodput) / capacityRate, 0)} %), p50 ${fmt(accepted.percentile(50), 0)} / p99 ${fmt(accepted.percentile(99), 0)} ms; ` +
            `503 ${refused.latencies.length}, p99 ${fmt(refused.percentile(99), 0)} ms; other ${tally.othersLine()}; saves p99 ${fmt(phaseSaves.percentile(99))} ms (${phaseSaves.errors} errors)`,
        );
      }
      // Once more after the storms: on a shared machine the capacity moves; the goodput above is
      // against the first, and this says how far the machine moved meanwhile.
      await pause(3000);
      console.log('');
      await measureCapacity('Capacity after');
    } finally {
      saving.stop();
    }
    console.log(`\nSummary (load average at the start ${load}, at the end ${loadavg().map((n) => fmt(n, 2)).join(', ')}; ${saving.skipped()} saves skipped, the contestant's previous save still running)`);
    for (const row of rows) console.log(`  ${row}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await pause(500);
    await scratch.drop();
    agent.destroy();
  }
}

runBenchmark(main, children);
