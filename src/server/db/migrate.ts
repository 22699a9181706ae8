// Applies the numbered SQL files of ./migrations in order, each in its own transaction, under a
// PostgreSQL advisory lock so that app processes starting together apply each file once. The lock
// is a transaction's (released at its end, on the same server connection), so that it also holds
// behind PgBouncer in transaction pooling, where a session lock could be taken on one server
// connection and "released" on another.
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

/** Returns the versions applied by this call. Throws (and applies nothing more) on any failure. */
export async function migrate(db: Db): Promise<string[]> {
  const newlyApplied: string[] = [];
  for (const migration of listMigrations()) {
    const applied = await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        version text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`.execute(trx);
      // Read under the lock: another process may have applied it while this one waited.
      const done = await sql`SELECT 1 FROM schema_migrations WHERE version = ${migration.version}`.execute(trx);
      if (done.rows.length > 0) return false;
      await sql.raw(migration.sql).execute(trx);
      await sql`INSERT INTO schema_migrations (version) VALUES (${migration.version})`.execute(trx);
      return true;
    });
    if (applied) newlyApplied.push(migration.version);
  }
  return newlyApplied;
}
