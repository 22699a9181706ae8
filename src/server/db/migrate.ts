// Applies the numbered SQL files of ./migrations in order, each in its own transaction, under a
// PostgreSQL advisory lock so that app processes starting together apply each file once.
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
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        version text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`.execute(conn);
      const done = await sql<{ version: string }>`SELECT version FROM schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((row) => row.version));
      const newlyApplied: string[] = [];
      for (const migration of listMigrations()) {
        if (applied.has(migration.version)) continue;
        await conn.transaction().execute(async (trx) => {
          await sql.raw(migration.sql).execute(trx);
          await sql`INSERT INTO schema_migrations (version) VALUES (${migration.version})`.execute(trx);
        });
        newlyApplied.push(migration.version);
      }
      return newlyApplied;
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}
