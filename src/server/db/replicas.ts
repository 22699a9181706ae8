// Read replicas (DATABASE_REPLICA_URL, issue 27): PostgreSQL streaming standbys that take the reads
// which may be a few seconds old (public pages, reports, exports, the dashboard's figures). Each
// replica is asked its lag every CHECK_EVERY_MS; a read goes to a replica whose last answer was a
// lag within REPLICA_MAX_LAG_SECONDS, in turn, and to the primary by itself when none is (lagging,
// down, or not a standby at all). Everything written, and every read that must see its own write,
// stays on the primary: a route chooses a replica only through readDb (docs/decisions/030).
import { sql } from 'kysely';
import { openDatabase, type Db } from './client';

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

export interface ReadRouting {
  /** The database for a read that may be up to the maximum lag old: a usable replica in turn, else the primary. */
  db(): Db;
  /** A usable replica that has applied every write the primary had committed when asked, else the primary. */
  caughtUp(): Promise<Db>;
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

export async function openReplicas({ urls, primary, maxLagSeconds, poolSize, schema, onStateChange }: OpenReplicasOptions): Promise<ReadRouting> {
  const replicas = await Promise.all(
    urls.map(async (url) => ({
      // No dataDir: a replica is always a PostgreSQL server. The schema is the primary's (tests give each file one).
      handle: await openDatabase({ databaseUrl: url, dataDir: '', poolSize, searchPath: schema }),
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
        return replica.handle.db;
      }
    }
    return undefined;
  }

  const choose = (db: Db | undefined) => {
    counts[db ? 'replica' : 'primary'] += 1;
    return db ?? primary;
  };

  return {
    db: () => choose(next()),
    async caughtUp() {
      const replica = next();
      if (!replica) return choose(undefined);
      try {
        const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.execute(primary);
        const caught = await sql<{ ok: boolean }>`SELECT pg_last_wal_replay_lsn() >= ${rows[0]!.lsn}::pg_lsn AS ok`.execute(replica);
        return choose(caught.rows[0]?.ok ? replica : undefined);
      } catch {
        return choose(undefined);
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

/** The database for a read that may lag by up to REPLICA_MAX_LAG_SECONDS: a replica when one is usable. */
export const readDb = (services: { db: Db; reads?: ReadRouting }): Db => services.reads?.db() ?? services.db;

/**
 * The database for a read that must see every write committed before it (anyone's, the caller's
 * own a moment ago): a replica only once it has applied all of them (two tiny statements), else the
 * primary. For the organiser's results review and exports, read right after a withdrawal or a recompute.
 */
export const readDbCaughtUp = async (services: { db: Db; reads?: ReadRouting }): Promise<Db> => (services.reads ? services.reads.caughtUp() : services.db);
