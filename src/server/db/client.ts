// Opens the database: a PostgreSQL server through a pg pool when a URL is given, otherwise an
// embedded PGlite persisted under dataDir (or in memory when dataDir is 'memory://').
import { mkdirSync } from 'node:fs';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { createPgliteEmulatedPool } from './pglite-pool';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** Schema to work in (tests give each file its own); created when missing. */
  schema?: string;
  poolSize?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
// count(*) and sums are int8/numeric: small enough here to be plain numbers on both drivers.
pg.types.setTypeParser(INT8_OID, (value) => Number(value));
pg.types.setTypeParser(NUMERIC_OID, (value) => Number(value));

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error(`Invalid schema name: ${options.schema}`);
  }
  const handle = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.schema, options.poolSize ?? 10)
    : await openPglite(options.dataDir, options.schema);
  if (options.schema) {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(options.schema)}`.execute(handle.db);
    if (handle.kind === 'pglite') await sql`SET search_path TO ${sql.id(options.schema)}`.execute(handle.db);
  }
  return handle;
}

/** A statement whose text starts with this comment runs as a named prepared statement. */
const PREPARED_STATEMENT = /^\/\* prepared:([a-z0-9_]+) \*\//;

/**
 * Kysely sends every statement unnamed, so PostgreSQL parses and plans it each time. For the
 * exam-day hot paths (features/exams/repo.ts) planning costs more than running; their text starts
 * with `/* prepared:<name> *\/` and this client sends them named: parsed once per connection.
 */
class PreparingClient extends pg.Client {
  override query(...args: any[]): any {
    const [text, values, callback] = args;
    const name = typeof text === 'string' ? PREPARED_STATEMENT.exec(text)?.[1] : undefined;
    if (name) return super.query({ name, text, values }, callback);
    return (super.query as (...a: any[]) => any)(...args);
  }
}

/** The pg pool behind a Kysely instance opened on PostgreSQL (none for PGlite). */
const poolOf = new WeakMap<Db, pg.Pool>();

/**
 * Runs one hot-path statement (text starting with the prepared-statement comment) straight on the
 * pg pool, without Kysely's per-query work (connection wrapper, result objects); through Kysely
 * on PGlite. Returns the rows and the number of rows the statement affected or returned.
 */
export async function hotQuery<Row>(db: Db, text: string, values: unknown[]): Promise<{ rows: Row[]; count: number }> {
  const pool = poolOf.get(db);
  if (pool) {
    const result = await pool.query<Row & pg.QueryResultRow>(text, values);
    return { rows: result.rows, count: result.rowCount ?? 0 };
  }
  // Without the marker (meaningless to PGlite), so that the emulated pool sees the UPDATE and counts its rows.
  const result = await db.executeQuery<Row>(CompiledQuery.raw(text.replace(PREPARED_STATEMENT, '').trimStart(), values));
  return { rows: result.rows, count: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows) };
}

/** How many statements can run at once: the pool's size on PostgreSQL, 1 on PGlite. */
export function connectionCount(db: Db): number {
  return poolOf.get(db)?.options.max ?? 1;
}

function openPostgres(url: string, schema: string | undefined, max: number): DatabaseHandle {
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString: url,
    max,
    // Fail fast rather than queue forever when the server is gone.
    connectionTimeoutMillis: 10_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  poolOf.set(db, pool);
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** One PGlite per data folder per process: PGlite takes seconds and ~0.5 GB to start. */
const pgliteInstances = new Map<string, Promise<import('@electric-sql/pglite').PGlite>>();

async function openPglite(dataDir: string, schema: string | undefined): Promise<DatabaseHandle> {
  const key = dataDir;
  let instance = pgliteInstances.get(key);
  if (!instance) {
    instance = (async () => {
      const { PGlite, types } = await import('@electric-sql/pglite');
      if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
      return PGlite.create(dataDir.startsWith('memory://') ? undefined : dataDir, {
        parsers: { [types.INT8]: (value: string) => Number(value), [types.NUMERIC]: (value: string) => Number(value) },
      });
    })();
    pgliteInstances.set(key, instance);
  }
  const pglite = await instance;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPgliteEmulatedPool(pglite) }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      // Shared test instances (schema given) stay open for the next test file of the worker.
      if (!schema) {
        pgliteInstances.delete(key);
        await pglite.close();
      }
    },
  };
}
