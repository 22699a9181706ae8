// A pg-compatible pool over one embedded PGlite instance, for Kysely's PostgresDialect.
// PGlite is a single connection: the pool hands it out to one borrower at a time, so a
// transaction (BEGIN ... COMMIT on one borrowed connection) is never interleaved with others.
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

const COMMANDS_WITH_ROW_COUNT = /^\s*(insert|update|delete|merge)\b/i;

export function createPgliteEmulatedPool(pglite: PGlite): PostgresPool {
  let queue: Promise<void> = Promise.resolve();

  const client = {
    async query(sql: string, parameters: readonly unknown[]) {
      // Without parameters use the simple protocol, which (like pg) runs several statements.
      const result =
        parameters.length === 0
          ? (await pglite.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 }
          : await pglite.query(sql, parameters as unknown[]);
      const command = COMMANDS_WITH_ROW_COUNT.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT';
      return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
    },
  };

  return {
    connect() {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const acquired = queue.then(() => ({ ...client, release }) as unknown as PostgresPoolClient);
      queue = queue.then(() => released);
      return acquired;
    },
    async end() {
      await queue;
    },
  };
}
