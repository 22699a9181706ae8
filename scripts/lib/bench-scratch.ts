// The scratch database of the province-size benchmarks (bench:quality, bench:integrity): a fresh
// database on the loopback PostgreSQL server named by BENCH_DATABASE_URL (default the local one),
// migrated and seeded with the demo content, dropped at the end unless BENCH_KEEP=1.
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/db/seed/seed';
import { systemClock } from '../../src/server/lib/clock';
import { createLoopbackDatabase } from './bench-app';

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
  const scratch = await createLoopbackDatabase(prefix);
  const handle = await openDatabase({ databaseUrl: scratch.databaseUrl, dataDir: 'memory://' });
  const client = new pg.Client({ connectionString: scratch.databaseUrl });
  const close = async () => {
    await client.end().catch(() => {});
    await handle.close();
    await scratch.drop({ keep: process.env.BENCH_KEEP === '1' });
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
