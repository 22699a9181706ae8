// The delivery queue: pg-boss (decision 040) in a schema of its own beside the app's, on the app's
// own connections (db/client.ts runJobSql): PostgreSQL's pool, or PGlite's one connection, taken
// in turn with every other statement. One job per recipient; a job's lease is pg-boss's
// expireInSeconds: the job of a process that died is retried once it has passed.
import { PgBoss, fromKysely } from 'pg-boss';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../../db/client';
import { isPglite, runJobSql } from '../../../db/client';
import type { Database } from '../../../db/schema';

export const DELIVERY_QUEUE = 'family-messages';
/** Tries of one recipient's job: the first and four retries, MESSAGES_RETRY_SECONDS apart and doubling. */
export const DELIVERY_TRIES = 5;

export interface DeliveryJob {
  recipientId: number;
}

const queues = new WeakMap<Db, Promise<PgBoss>>();

/** The pg-boss of this database in this process, started on first use (its schema created or migrated). */
export function messageQueue(db: Db, { leaseSeconds, retrySeconds }: { leaseSeconds: number; retrySeconds: number }): Promise<PgBoss> {
  let queue = queues.get(db);
  if (!queue) {
    queue = (async () => {
      const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
      // Jobs past their lease (a process that died) are found within a lease: pg-boss expires them
      // in its monitor pass, which runs at most every monitorIntervalSeconds (60 by default) even
      // when the supervise timer fires more often, so both follow the lease.
      const passSeconds = Math.min(60, leaseSeconds);
      const boss = new PgBoss({
        db: { executeSql: (text, values) => runJobSql(db, text, values) },
        // The jobs of the app's schema <s> live in <s>_pgboss (public_pgboss; a test's schema has its own).
        schema: `${rows[0]!.schema}_pgboss`,
        backend: isPglite(db) ? 'pglite' : 'postgres',
        schedule: false,
        superviseIntervalSeconds: passSeconds,
        monitorIntervalSeconds: passSeconds,
      });
      // An 'error' with no listener would end the process; the delivery worker logs them (delivery.ts).
      boss.on('error', () => {});
      await boss.start();
      await boss.createQueue(DELIVERY_QUEUE, { retryLimit: DELIVERY_TRIES - 1, retryDelay: retrySeconds, retryBackoff: true, expireInSeconds: leaseSeconds });
      return boss;
    })();
    queue.catch(() => queues.delete(db));
    queues.set(db, queue);
  }
  return queue;
}

/** Queues a campaign's recipients in the transaction that writes them: no recipient without its job. */
export async function queueDeliveries(trx: Transaction<Database>, boss: PgBoss, recipients: { id: number; startAfterSeconds: number }[]) {
  const db = fromKysely(trx);
  for (let at = 0; at < recipients.length; at += 1000) {
    await boss.insert(
      DELIVERY_QUEUE,
      recipients.slice(at, at + 1000).map((recipient) => ({ data: { recipientId: recipient.id } satisfies DeliveryJob, startAfter: recipient.startAfterSeconds })),
      { db },
    );
  }
}

/** Stops this database's pg-boss (the app's close). */
export async function closeMessageQueue(db: Db) {
  const queue = queues.get(db);
  if (!queue) return;
  queues.delete(db);
  const boss = await queue.catch(() => undefined);
  await boss?.stop({ graceful: false, close: false });
}
