// Read replicas (issue 27) against a real streaming standby made on this machine (replica-pair.ts):
// public pages and reports read from it while it keeps up, from the primary by themselves while it
// lags or is down, and /metrics tells which.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createMetrics } from '../core/metrics/metrics';
import { startTestServer, usingPostgres, type TestServer } from '../test/harness';
import { postgresBinaries, startReplicaPair, until, type ReplicaPair } from '../test/replica-pair';


// In the PostgreSQL pass of the API tests only (its own two clusters: the PGlite pass would run it twice).
describe.runIf(usingPostgres() && postgresBinaries())('read replicas', () => {
  let pair: ReplicaPair;
  let server: TestServer;
  const usable = () => server.reads!.states()[0]!.usable;
  /** The database a read that must see every earlier write is given now. */
  const caughtUpDb = () => server.reads!.read(async (db) => db, { caughtUp: true });
  const districtNames = async () => ((await server.request('GET', '/api/districts')).body.data as { name: string }[]).map((d) => d.name);

  beforeAll(async () => {
    pair = await startReplicaPair();
    server = await startTestServer({ databaseUrl: pair.primaryUrl, replicaUrls: [pair.replicaUrl], env: { REPLICA_MAX_LAG_SECONDS: '2' } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await pair?.stop();
  });

  it('reads the public pages and the school report from the replica while it keeps up', async () => {
    await until(usable, 'reading from the replica');
    // The migrations and the seed just committed on the primary: usable says the standby has applied
    // what it received, not yet that it has received all of it.
    await until(async () => (await caughtUpDb()) !== server.db, 'caught up with the primary');
    const before = { ...server.reads!.counts };
    const districts = await server.request('GET', '/api/districts');
    expect(districts.status).toBe(200);
    expect(districts.body.data.length).toBeGreaterThan(0);
    expect((await server.request('GET', '/api/blogs')).status).toBe(200);
    expect(server.reads!.counts.replica).toBeGreaterThanOrEqual(before.replica + 2);
    expect(server.reads!.counts.primary).toBe(before.primary);

    const metrics = await createMetrics({ db: server.db, reads: server.reads }).registry.metrics();
    expect(metrics).toMatch(/contest_replica_usable\{replica="127\.0\.0\.1:\d+"\} 1/);
    expect(metrics).toMatch(/contest_replica_reads_total\{target="replica"\} [1-9]/);
  });

  it('answers from the primary a read of a table the replica does not have yet (a migration on its way), not a 500', async () => {
    await until(usable, 'reading from the replica');
    await pair.onReplica('SELECT pg_wal_replay_pause()');
    try {
      // Applied on the primary; the paused standby has received it, not applied it: still usable.
      await sql`CREATE TABLE just_migrated (n int); INSERT INTO just_migrated VALUES (7)`.execute(server.db);
      await until(async () => (await pair.onReplica('SELECT pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn() AS behind')).rows[0].behind === true, 'the migration received');
      const before = { ...server.reads!.counts };
      const rows = await server.reads!.read(async (db) => (await sql<{ n: number }>`SELECT n FROM just_migrated`.execute(db)).rows);
      expect(rows).toEqual([{ n: 7 }]);
      // Asked of the replica first (its error), then of the primary.
      expect(server.reads!.counts.replica).toBe(before.replica + 1);
      expect(server.reads!.counts.primary).toBe(before.primary + 1);
    } finally {
      await pair.onReplica('SELECT pg_wal_replay_resume()');
      await sql`DROP TABLE just_migrated`.execute(server.db);
    }
  });

  it('goes to the primary by itself while the replica lags more than REPLICA_MAX_LAG_SECONDS, and back once it catches up', async () => {
    await until(usable, 'reading from the replica');
    await pair.onReplica('SELECT pg_wal_replay_pause()');
    try {
      // A district the paused replica does not have (with a school: the public list shows no empty
      // district); writes keep arriving, so its lag grows.
      await sql`WITH d AS (INSERT INTO districts (name) VALUES ('Huyện Mới Lập') RETURNING id)
        INSERT INTO schools (district_id, name, address, pupil_count) SELECT id, 'Trường Tiểu học Mới Lập', '', 100 FROM d`.execute(server.db);
      await until(async () => {
        await sql`SELECT pg_logical_emit_message(false, 'tick', 'x')`.execute(server.db);
        return !usable();
      }, 'away from the lagging replica');
      const before = server.reads!.counts.primary;
      expect(await districtNames()).toContain('Huyện Mới Lập');
      expect(server.reads!.counts.primary).toBe(before + 1);
      expect(server.reads!.states()[0]!.lagSeconds).toBeGreaterThan(2);
    } finally {
      await pair.onReplica('SELECT pg_wal_replay_resume()');
    }
    await until(usable, 'back on the replica once it caught up');
    const replicaReads = server.reads!.counts.replica;
    expect(await districtNames()).toContain('Huyện Mới Lập');
    expect(server.reads!.counts.replica).toBe(replicaReads + 1);
  });

  it('reads what must see every earlier write (results review, exports) from the replica only once it has applied them', async () => {
    await until(usable, 'reading from the replica');
    await until(async () => (await caughtUpDb()) !== server.db, 'caught up with the primary');
    await pair.onReplica('SELECT pg_wal_replay_pause()');
    try {
      await sql`INSERT INTO districts (name) VALUES ('Huyện Vừa Ghi')`.execute(server.db);
      // Still usable (a second behind at most), but without that write: the primary answers.
      expect(await caughtUpDb()).toBe(server.db);
    } finally {
      await pair.onReplica('SELECT pg_wal_replay_resume()');
    }
    await until(async () => (await caughtUpDb()) !== server.db, 'on the replica once it has the write');
  });

  it("gives a parent's report from the primary while the replica lacks a child just renamed, from the replica once it has it", async () => {
    const login = await server.request('POST', '/api/login', { body: { phone: '0987654321', password: 'phuhuynh123' } });
    expect(login.status).toBe(200);
    const token = login.body.access_token as string;
    await until(async () => (await caughtUpDb()) !== server.db, 'caught up with the primary');
    await pair.onReplica('SELECT pg_wal_replay_pause()');
    try {
      await sql`UPDATE contestants SET fullname = 'Nguyễn Minh Anh Đổi Tên' WHERE fullname = 'Nguyễn Minh Anh'`.execute(server.db);
      const primaryReads = server.reads!.counts.primary;
      const report = await server.request('GET', '/api/profile', { token });
      expect(report.body.data.childrens.map((c: { fullname: string }) => c.fullname)).toContain('Nguyễn Minh Anh Đổi Tên');
      expect(server.reads!.counts.primary).toBe(primaryReads + 1);
    } finally {
      await pair.onReplica('SELECT pg_wal_replay_resume()');
    }
    await until(async () => (await caughtUpDb()) !== server.db, 'on the replica once it has the write');
    const replicaReads = server.reads!.counts.replica;
    const again = await server.request('GET', '/api/profile', { token });
    expect(again.body.data.childrens.map((c: { fullname: string }) => c.fullname)).toContain('Nguyễn Minh Anh Đổi Tên');
    expect(server.reads!.counts.replica).toBeGreaterThan(replicaReads);
  });

  it('serves every read from the primary while the replica is down, with no error, and uses it again when it is back', async () => {
    await until(usable, 'reading from the replica');
    await pair.stopReplica();
    try {
      await until(() => !usable(), 'away from the stopped replica');
      const before = server.reads!.counts.primary;
      for (const path of ['/api/districts', '/api/class-groups', '/api/blogs', '/api/books']) {
        expect((await server.request('GET', path)).status).toBe(200);
      }
      expect(server.reads!.counts.primary).toBeGreaterThanOrEqual(before + 4);
      expect(server.reads!.states()[0]!.lagSeconds).toBeNull();
    } finally {
      await pair.startReplica();
    }
    await until(usable, 'back on the restarted replica');
    expect((await server.request('GET', '/api/districts')).status).toBe(200);
  });

  it('keeps what must see its own write on the primary: a school administrator who just logged in opens the report', async () => {
    await until(usable, 'reading from the replica');
    await pair.onReplica('SELECT pg_wal_replay_pause()');
    try {
      // The new session is on the primary only; the guard reads it there, the report from wherever it may.
      const login = await server.request('POST', '/api/login', { body: { phone: '0901000001', password: 'truong123' } });
      expect(login.status).toBe(200);
      const report = await server.request('GET', '/api/report-school', { token: login.body.access_token });
      expect(report.status).toBe(200);
    } finally {
      await pair.onReplica('SELECT pg_wal_replay_resume()');
    }
  });
});
