// Read replicas (DATABASE_REPLICA_URL, issue 27): PostgreSQL streaming standbys that take the reads
// which may be a few seconds old (public pages, reports, exports, the dashboard's figures). Each
// replica is asked its lag every CHECK_EVERY_MS; a read goes to a replica whose last answer was a
// lag within REPLICA_MAX_LAG_SECONDS, in turn, and to the primary by itself when none is (lagging,
// down, or not a standby at all). Everything written, and every read that must see its own write,
// stays on the primary: a route chooses a replica only through readFromReplica (docs/decisions/030).
// A replica's pool is read-only (a write sent there fails loudly, 25006) and gives a statement up
// after REPLICA_QUERY_TIMEOUT_MS; a read that a replica fails for being away, hung or cancelled is
// run again on the primary, and that replica is left until its next lag check answers.
import { sql } from 'kysely';
import { openDatabase, type Db } from './client';
import { isConnectionError } from './errors';

const CHECK_EVERY_MS = 1_000;
/** A replica that has not answered its lag check within this is taken as down. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * The lag in seconds: 0 while the standby streams and has applied all it received; otherwise the age
 * of the last transaction it applied (it may be cut off from the primary, or applying a backlog).
 * Not a standby (a promoted one, a wrong URL): null, never used for reads.
 */
const LAG_QUERY = sql<{ lag: number | null }>`
  SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN NULL
    WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
         AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') THEN 0
    ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 'Infinity')
  END::float8 AS lag`;

export interface ReplicaState {
  /** Host and port only (the URL's credentials never leave this module). */
  name: string;
  /** Seconds behind the primary at the last check; null when it is down or not a standby. */
  lagSeconds: number | null;
  usable: boolean;
}

export interface ReadOptions {
  /** The read must see every write the primary had committed when it was asked (see readFromReplica). */
  caughtUp?: boolean;
}

export interface ReadRouting {
  /**
   * Runs `read` on a usable replica in turn (with `caughtUp`, only on one that has applied every
   * write the primary had committed when asked), else on the primary; on the primary again when
   * the replica fails it for being away, hung or cancelled by recovery. `read` must only read, and
   * may run twice.
   */
  read<T>(read: (db: Db) => Promise<T>, options?: ReadOptions): Promise<T>;
  states(): ReplicaState[];
  /** Reads sent to replicas and to the primary since the start (for /metrics). */
  readonly counts: { replica: number; primary: number };
  close(): Promise<void>;
}

export interface OpenReplicasOptions {
  urls: readonly string[];
  primary: Db;
  maxLagSeconds: number;
  poolSize: number;
  /** A statement or a connect on a replica given up after this (ms), then run on the primary. */
  queryTimeoutMs: number;
  schema?: string;
  onStateChange?: (state: ReplicaState) => void;
}

const nameOf = (url: string) => {
  try {
    const parsed = new URL(url);
    return `${decodeURIComponent(parsed.hostname) || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'replica';
  }
};

/**
 * A replica's failure that the primary can answer instead: the replica is away or unreachable,
 * hung past the timeout (client side, or statement_timeout: 57014), or cancelled the statement for
 * a conflict with recovery (40001). Any other error, such as a write refused on the read-only
 * connection (25006), is the read's own and is not hidden.
 */
function replicaTrouble(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '57014' || code === '40001') return true;
  // A relation, column, function or schema the primary has and the replica not yet (a migration
  // just applied, still on its way to the standby): the primary answers instead of a 500.
  if (code === '42P01' || code === '42703' || code === '42883' || code === '3F000') return true;
  return error instanceof Error && error.message === 'Query read timeout';
}

export async function openReplicas({ urls, primary, maxLagSeconds, poolSize, queryTimeoutMs, schema, onStateChange }: OpenReplicasOptions): Promise<ReadRouting> {
  const replicas = await Promise.all(
    urls.map(async (url) => ({
      // No dataDir: a replica is always a PostgreSQL server. The schema is the primary's (tests give each file one).
      handle: await openDatabase({ databaseUrl: url, dataDir: '', poolSize, searchPath: schema, readOnly: { timeoutMs: queryTimeoutMs } }),
      state: { name: nameOf(url), lagSeconds: null, usable: false } as ReplicaState,
      checking: false,
    })),
  );
  const counts = { replica: 0, primary: 0 };
  let turn = 0;

  async function check(replica: (typeof replicas)[number]) {
    if (replica.checking) return;
    replica.checking = true;
    let lagSeconds: number | null = null;
    try {
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('replica lag check timed out')), CHECK_TIMEOUT_MS).unref());
      const { rows } = await Promise.race([LAG_QUERY.execute(replica.handle.db), timeout]);
      lagSeconds = rows[0]?.lag ?? null;
    } catch {
      // Down, or too slow to answer: lagSeconds stays null and its reads go to the primary.
    } finally {
      replica.checking = false;
    }
    const usable = lagSeconds !== null && lagSeconds <= maxLagSeconds;
    if (usable !== replica.state.usable) onStateChange?.({ ...replica.state, lagSeconds, usable });
    replica.state = { ...replica.state, lagSeconds, usable };
  }

  const checkAll = () => Promise.all(replicas.map(check));
  await checkAll();
  const timer = setInterval(() => void checkAll(), CHECK_EVERY_MS).unref();

  /** The next usable replica in turn, if any. */
  function next() {
    for (let k = 0; k < replicas.length; k += 1) {
      const replica = replicas[(turn + k) % replicas.length]!;
      if (replica.state.usable) {
        turn = (turn + k + 1) % replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  /** Takes a replica out until its next lag check answers (a hung one does not within CHECK_TIMEOUT_MS). */
  function leave(replica: (typeof replicas)[number]) {
    if (!replica.state.usable) return;
    replica.state = { ...replica.state, lagSeconds: null, usable: false };
    onStateChange?.({ ...replica.state });
  }

  /** Whether `replica` has applied every write the primary has committed now (two tiny statements). */
  async function hasCaughtUp(replica: (typeof replicas)[number]) {
    const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.execute(primary);
    const caught = await sql<{ ok: boolean }>`SELECT pg_last_wal_replay_lsn() >= ${rows[0]!.lsn}::pg_lsn AS ok`.execute(replica.handle.db);
    return caught.rows[0]?.ok === true;
  }

  const onPrimary = <T>(read: (db: Db) => Promise<T>) => {
    counts.primary += 1;
    return read(primary);
  };

  return {
    async read(read, options = {}) {
      const replica = next();
      if (!replica) return onPrimary(read);
      try {
        if (options.caughtUp && !(await hasCaughtUp(replica))) return onPrimary(read);
        counts.replica += 1;
        return await read(replica.handle.db);
      } catch (error) {
        if (!replicaTrouble(error)) throw error;
        leave(replica);
        return onPrimary(read);
      }
    },
    states: () => replicas.map((replica) => ({ ...replica.state })),
    counts,
    async close() {
      clearInterval(timer);
      await Promise.all(replicas.map((replica) => replica.handle.close()));
    },
  };
}

/**
 * Runs a read that may lag by up to REPLICA_MAX_LAG_SECONDS on a replica when one is usable (else,
 * or when the replica fails it, on the primary). With `caughtUp`, the read must see every write
 * committed before it (anyone's, the caller's own a moment ago): a replica only once it has applied
 * all of them. `read` must not write: a replica's connection is read-only.
 */
export const readFromReplica = <T>(services: { db: Db; reads?: ReadRouting }, read: (db: Db) => Promise<T>, options?: ReadOptions): Promise<T> =>
  services.reads ? services.reads.read(read, options) : read(services.db);
