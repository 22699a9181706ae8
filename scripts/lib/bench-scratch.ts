// The scratch database of the province-size benchmarks (bench:quality, bench:integrity): a fresh
// database on the loopback PostgreSQL server named by BENCH_DATABASE_URL (default the local one),
// migrated and seeded with the demo content, dropped at the end unless BENCH_KEEP=1.
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/db/seed/seed';
import { systemClock } from '../../src/server/lib/clock';

export const fmt = (value: number, digits = 1) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const seconds = (ms: number) => `${fmt(ms / 1000, 2)} s`;

export interface ScratchDatabase {
  /** The app's own handle (Kysely), for the code measured. */
  handle: DatabaseHandle;
  /** A plain connection, for the generation's statements. */
  client: pg.Client;
  /** The current contest of the demo content. */
  contestId: number;
  /** Runs one statement of the generation and prints its rows and time under `label`. */
  step(label: string, text: string, values?: unknown[]): Promise<void>;
  /** Closes the connections and drops the database (kept with BENCH_KEEP=1). */
  close(): Promise<void>;
}

export async function openScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!/^postgres(ql)?:\/\/[^/]*@?(127\.0\.0\.1|localhost)(:\d+)?\//.test(adminUrl)) throw new Error('BENCH_DATABASE_URL must point at a PostgreSQL server on loopback');
  const database = `${prefix}_${process.pid}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
  const client = new pg.Client({ connectionString: url.toString() });
  const close = async () => {
    await client.end().catch(() => {});
    await handle.close();
    if (process.env.BENCH_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    else console.log(`kept database ${database}`);
    await admin.end();
  };
  try {
    await migrate(handle.db);
    await seedIfEmpty(handle.db, { clock: systemClock, demoWindow: true });
    await client.connect();
    const contestId = (await client.query('SELECT id FROM contests WHERE is_current')).rows[0].id as number;
    const step = async (label: string, text: string, values: unknown[] = []) => {
      const started = performance.now();
      const result = await client.query(text, values);
      console.log(`  ${label}: ${fmt(result.rowCount ?? 0, 0)} rows in ${seconds(performance.now() - started)}`);
    };
    return { handle, client, contestId, step, close };
  } catch (error) {
    await close();
    throw error;
  }
}
