// Applies the numbered SQL files of ./migrations in order, under a PostgreSQL advisory lock so that
// app processes starting together apply each file once. Every file still to apply goes into ONE
// transaction: a commit waits for a synchronous standby (decision 029: a round trip to it, 5-20 ms
// to another building, 200 ms in the failover drill), so files committed one by one cost a fresh
// database one round trip each before the app can serve; one transaction costs one. It also makes
// an upgrade all or nothing: a file that fails leaves the schema as the running version knows it.
// The lock is a transaction's (released at its end, on the same server connection), so that it
// also holds behind PgBouncer in transaction pooling, where a session lock could be taken on one
// server connection and "released" on another.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './client';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;
// Arbitrary constant shared by every app process: "reading contest migrations".
const MIGRATION_LOCK_KEY = 7_316_452_001;

export function listMigrations(): { version: string; sql: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => ({ version: name.replace(/\.sql$/, ''), sql: readFileSync(MIGRATIONS_DIR + name, 'utf8') }));
}

/**
 * Returns the versions applied by this call, in one transaction (one commit). Throws on any
 * failure, and then applies none of them (the transaction is rolled back).
 */
export async function migrate(db: Db): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`.execute(trx);
    // Read under the lock: another process may have applied them while this one waited.
    const done = new Set((await sql<{ version: string }>`SELECT version FROM schema_migrations`.execute(trx)).rows.map((row) => row.version));
    const pending = listMigrations().filter((migration) => !done.has(migration.version));
    for (const migration of pending) {
      await sql.raw(migration.sql).execute(trx);
      await sql`INSERT INTO schema_migrations (version) VALUES (${migration.version})`.execute(trx);
    }
    return pending.map((migration) => migration.version);
  });
}
