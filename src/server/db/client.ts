// Opens the database: a PostgreSQL server through a pg pool when a URL is given, otherwise an
// embedded PGlite persisted under dataDir (or in memory when dataDir is 'memory://').
import { mkdirSync } from 'node:fs';
import { CompiledQuery, Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isLostConnection } from './errors';
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
  /** Schema to work in that exists already and is not to be created (a read replica of `schema`'s database). */
  searchPath?: string;
  poolSize?: number;
  /** Send the hot statements as named prepared statements (default true; see HotStatement). */
  namedStatements?: boolean;
  /** Told of every error of a PostgreSQL connection outside a query (e.g. the server restarted). */
  onConnectionError?: (error: Error) => void;
  /**
   * A read replica's pool (PostgreSQL only): every transaction read-only, so that a write sent to it
   * fails loudly (25006) instead of on exam day; and every statement, and every connect, given up
   * after this many ms, on the server (statement_timeout) and in the client (a frozen machine).
   */
  readOnly?: { timeoutMs: number };
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
let typeParsersInstalled = false;

/**
 * count(*) and sums are int8/numeric: small enough here to be plain numbers on both drivers.
 * pg's parsers are process-wide, so they are set here once, when the first PostgreSQL database
 * opens (PGlite gets the same parsers per instance, see openPglite). Idempotent.
 */
export function installPgTypeParsers(): void {
  if (typeParsersInstalled) return;
  pg.types.setTypeParser(INT8_OID, (value) => Number(value));
  pg.types.setTypeParser(NUMERIC_OID, (value) => Number(value));
  typeParsersInstalled = true;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  for (const name of [options.schema, options.searchPath]) {
    if (name !== undefined && !SCHEMA_NAME.test(name)) throw new Error(`Invalid schema name: ${name}`);
  }
  const handle = options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : await openPglite(options.dataDir, options.schema);
  if (options.schema) {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(options.schema)}`.execute(handle.db);
    if (handle.kind === 'pglite') await sql`SET search_path TO ${sql.id(options.schema)}`.execute(handle.db);
  }
  return handle;
}

/**
 * An exam-day hot statement. Kysely sends every statement unnamed, so PostgreSQL parses and plans
 * it each time; for these planning costs more than running, so they go to pg named: parsed once
 * per connection (unless the database options say not to, e.g. behind PgBouncer before 1.21).
 */
export interface HotStatement {
  name: string;
  text: string;
}

/** The pg pool behind a Kysely instance opened on PostgreSQL (none for PGlite). */
const poolOf = new WeakMap<Db, { pool: pg.Pool; namedStatements: boolean }>();

/**
 * Runs one hot-path statement straight on the pg pool, without Kysely's per-query work
 * (connection wrapper, result objects); through Kysely on PGlite. Returns the rows and the number
 * of rows the statement affected or returned.
 */
export async function hotQuery<Row>(db: Db, statement: HotStatement, values: unknown[]): Promise<{ rows: Row[]; count: number }> {
  const postgres = poolOf.get(db);
  if (postgres) {
    const query = postgres.namedStatements ? { name: statement.name, text: statement.text, values } : { text: statement.text, values };
    // The statement is alone on its connection: sent again when that connection was found dead (see retryingPool).
    const result = await whileConnectionsAreDead(postgres.pool, () => postgres.pool.query<Row & pg.QueryResultRow>(query));
    return { rows: result.rows, count: result.rowCount ?? 0 };
  }
  const result = await db.executeQuery<Row>(CompiledQuery.raw(statement.text, values));
  return { rows: result.rows, count: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows) };
}

/** The pg pool's connections now (undefined on PGlite): for metrics and load shedding. */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = poolOf.get(db)?.pool;
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}

/** The PGlite instance and the emulated pool behind a Kysely instance opened on PGlite. */
const pgliteOf = new WeakMap<Db, { pglite: import('@electric-sql/pglite').PGlite; pool: PostgresPool }>();

/** Whether a database opened by openDatabase is the embedded PGlite. */
export const isPglite = (db: Db) => pgliteOf.has(db);

/**
 * Runs SQL text as a job library sends it (features/admin/messages/queue.ts): with parameters one
 * statement, without them possibly several (its migrations, BEGIN ... COMMIT blocks), the rows of
 * every statement returned. On PostgreSQL on a connection of the pool; on PGlite while holding its
 * one connection (so it never lands inside another borrower's transaction), a transaction the
 * text left aborted rolled back before the connection is handed on.
 */
export async function runJobSql(db: Db, text: string, values: unknown[] = []): Promise<{ rows: unknown[] }> {
  const postgres = poolOf.get(db);
  if (postgres) {
    const result = (await postgres.pool.query(text, values)) as unknown as pg.QueryResult | pg.QueryResult[];
    return { rows: Array.isArray(result) ? result.flatMap((part) => part.rows ?? []) : result.rows };
  }
  const embedded = pgliteOf.get(db);
  if (!embedded) throw new Error('runJobSql: not a database opened by openDatabase');
  const connection = await embedded.pool.connect();
  try {
    if (values.length) return await embedded.pglite.query(text, values);
    return { rows: (await embedded.pglite.exec(text)).flatMap((part) => part.rows ?? []) };
  } catch (error) {
    if (embedded.pglite.isInTransaction()) await embedded.pglite.exec('ROLLBACK');
    throw error;
  } finally {
    connection.release();
  }
}

/** The readiness probe's own connection per database, outside the pool (see pingDatabase), and the probe running on it. */
const probeOf = new WeakMap<Db, { client: pg.Client; connected: Promise<unknown>; running?: Promise<void> }>();

/**
 * SELECT 1 on a connection of its own, never queued behind the pool's waiting queries, so that
 * /readyz says whether the database answers even while every pooled connection is busy (the probe
 * of an overloaded process must not time out for that). Probes that arrive while one runs share
 * its answer. Fails after `timeoutMs` (the connection is then dropped; the next probe opens one).
 * On PGlite, through the database itself (no pool, no queue of the kind).
 */
export async function pingDatabase(db: Db, timeoutMs: number): Promise<void> {
  const pool = poolOf.get(db)?.pool;
  if (!pool) return void (await sql`SELECT 1`.execute(db));
  let probe = probeOf.get(db);
  if (!probe) {
    const client = new pg.Client({ ...pool.options, connectionTimeoutMillis: timeoutMs });
    client.on('error', () => drop(db, client));
    const connected = client.connect();
    connected.catch(() => {}); // awaited (and its failure answered) by the probe below
    probe = { client, connected };
    probeOf.set(db, probe);
  }
  const current = probe;
  current.running ??= (async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        (async () => {
          await current.connected;
          await current.client.query('SELECT 1');
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      drop(db, current.client);
      throw error;
    } finally {
      clearTimeout(timer);
      current.running = undefined;
    }
  })();
  return current.running;
}

function drop(db: Db, client: pg.Client) {
  if (probeOf.get(db)?.client === client) probeOf.delete(db);
  void client.end().catch(() => {});
}

/** How many statements can run at once: the pool's size on PostgreSQL, 1 on PGlite. */
export function connectionCount(db: Db): number {
  return poolOf.get(db)?.pool.options.max ?? 1;
}

function openPostgres(url: string, options: OpenDatabaseOptions): DatabaseHandle {
  installPgTypeParsers();
  const onError = options.onConnectionError ?? (() => {});
  const searchPath = options.schema ?? options.searchPath;
  const serverOptions = [
    ...(searchPath ? [`-c search_path=${searchPath}`] : []),
    ...(options.readOnly ? ['-c default_transaction_read_only=on', `-c statement_timeout=${options.readOnly.timeoutMs}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Fail fast rather than queue forever when the server is gone.
    connectionTimeoutMillis: options.readOnly?.timeoutMs ?? 10_000,
    ...(options.readOnly ? { query_timeout: options.readOnly.timeoutMs } : {}),
    ...(serverOptions.length ? { options: serverOptions.join(' ') } : {}),
  });
  // A connection that the server ends (a restart, pg_terminate_backend, a network cut) emits
  // 'error': on the pool while it is idle, on the client while it is lent out. With no listener
  // Node throws it and the process dies; with one, pg drops that connection and the pool opens a
  // new one for the next query, so the process serves again as soon as the server is back.
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: retryingPool(pool) }) });
  poolOf.set(db, { pool, namedStatements: options.namedStatements ?? true });
  const close = async () => {
    const probe = probeOf.get(db);
    probeOf.delete(db);
    await Promise.all([db.destroy(), probe?.client.end().catch(() => {})]);
  };
  return { db, kind: 'postgres', close };
}

/**
 * Runs `attempt` again while it fails for a lost connection: every idle connection of the pool may
 * be dead (each such failure is immediate and drops that connection), so up to the pool's size + 1.
 */
async function whileConnectionsAreDead<T>(pool: pg.Pool, attempt: () => Promise<T>): Promise<T> {
  for (let tries = (pool.options.max ?? 10) + 1; ; tries -= 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries <= 1 || !isLostConnection(error)) throw error;
    }
  }
}

/**
 * The pool Kysely draws from. A connection that the server ended while it sat idle in the pool
 * (pg_terminate_backend, a pooler's or a firewall's idle timeout) is found dead only by the next
 * statement sent on it, which the server never ran: it had closed the connection before, or was
 * ended while running it, which rolls it back. So the first statement on a connection taken from
 * the pool is sent again, on another connection, when it fails for a lost connection; later
 * statements are not (a transaction under way is lost with its connection). A database that is
 * really away ends the tries with a refused connection (503).
 */
function retryingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: pg.PoolClient | undefined = await pool.connect();
      let first = true;
      // A statement given up by the client (query_timeout) may still be running on that
      // connection, which would hold the next one: such a connection is dropped, not pooled again.
      let timedOut: Error | undefined;
      const watch = (sent: Promise<unknown>) => {
        sent.catch((error: unknown) => {
          if (error instanceof Error && error.message === 'Query read timeout') timedOut = error;
        });
        return sent;
      };
      const retried = (text: string, values: unknown[]) =>
        whileConnectionsAreDead(pool, async () => {
          client ??= await pool.connect();
          try {
            return await client.query(text, values);
          } catch (error) {
            if (isLostConnection(error)) {
              client.release(error as Error);
              client = undefined;
            }
            throw error;
          }
        });
      const query = (text: string, values: unknown[]) => {
        if (!client) return Promise.reject(new Error('Client was closed'));
        if (!first) return watch(client.query(text, values));
        first = false;
        return watch(retried(text, values));
      };
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client?.release(timedOut) };
    },
    end: () => pool.end(),
  };
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
  const pool = createPgliteEmulatedPool(pglite);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pgliteOf.set(db, { pglite, pool });
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
