// Every GET of the API with a real streaming standby configured (issue 35): a read routed to a
// replica never writes, so none answers 5xx there, as a visitor, a parent, a school administrator
// or the organiser, on a season with published results, an earlier season, a renamed school and a
// stale dashboard; and a replica that hangs (SIGSTOP) does not hold the reads sent to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { demoAccounts } from './seed/demo-accounts';
import { addPreviousDemoSeason } from '../demo/previous-season';
import { simulateDemoResults } from '../demo/results';
import { issueCertificates } from '../features/certificates/background';
import { routesOfTree } from '../test/route-tree';
import { startTestServer, usingPostgres, type TestServer } from '../test/harness';
import { postgresBinaries, startReplicaPair, until, type ReplicaPair } from '../test/replica-pair';

const parentOf = (pid: number) => Number(/^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** A process and its children (a PostgreSQL server: the postmaster and its backends). */
function serverProcesses(postmaster: number): number[] {
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return parentOf(pid) === postmaster;
      } catch {
        return false; // ended meanwhile
      }
    });
  return [postmaster, ...children];
}

/** Sends a signal to a process that may have ended meanwhile (the backend of the pid query). */
function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}


/**
 * The GETs that write, on the primary, by design (decision 030): the spec's exam load claims the
 * screen as the exam's writer, the spec's reset link is used up by its exchange, a certificate's
 * download keeps the file it drew under its content, and an export of results is written in the
 * audit log. None is routed to a replica.
 */
const WRITING_BY_DESIGN = new Set(['/api/examing', '/api/customer/change-password', '/api/certificates/:code/:format', '/api/admin/results/exports/:kind']);

/**
 * The GETs whose one write is the audit log's line of the view (the education offices' viewers,
 * decision 039): written on the primary after the read, and nothing else.
 */
const AUDITED_VIEWS = new Set(['/api/viewer/participation', '/api/viewer/results', '/api/viewer/participation.xlsx', '/api/viewer/results.xlsx']);

describe.runIf(usingPostgres() && postgresBinaries())('every GET with a streaming standby configured', () => {
  let pair: ReplicaPair;
  let server: TestServer;
  const tokens: Record<string, string | undefined> = { visitor: undefined };
  const usable = () => server.reads!.states()[0]!.usable;

  const login = async (phone: string, password: string) => {
    const response = await server.request('POST', '/api/login', { body: { phone, password } });
    expect(response.status).toBe(200);
    return response.body.access_token as string;
  };

  beforeAll(async () => {
    pair = await startReplicaPair();
    server = await startTestServer({ databaseUrl: pair.primaryUrl, replicaUrls: [pair.replicaUrl], env: { REPLICA_MAX_LAG_SECONDS: '30', REPLICA_QUERY_TIMEOUT_MS: '2000' } });
    // A season with published results and their certificates, and an earlier one.
    await addPreviousDemoSeason(server.db, server.clock);
    await simulateDemoResults(server.db, server.clock, { publish: true });
    while ((await issueCertificates(server)) > 0);
    tokens.parent = await login(demoAccounts.parent.phone, demoAccounts.parent.password);
    tokens.schoolAdmin = await login(demoAccounts.schoolAdmin.phone, demoAccounts.schoolAdmin.password);
    tokens.organiser = await login(demoAccounts.organiser.phone, demoAccounts.organiser.password);
    // The education offices' viewers (issue 41): their reads go to the standby too.
    tokens.provinceViewer = await login(demoAccounts.provinceViewer.phone, demoAccounts.provinceViewer.password);
    tokens.unitViewer = await login(demoAccounts.unitViewer.phone, demoAccounts.unitViewer.password);
    // The school administrator's school renamed (its certificates are then out of date), and a
    // process that stopped reporting its autosave counters an hour ago (the dashboard's cleanup).
    const admin = await server.db.selectFrom('users').select('school_id').where('phone', '=', demoAccounts.schoolAdmin.phone).executeTakeFirstOrThrow();
    const school = await server.db.selectFrom('schools').selectAll().where('id', '=', admin.school_id!).executeTakeFirstOrThrow();
    const renamed = await server.request('PUT', `/api/admin/schools/${school.id}`, {
      token: tokens.organiser,
      body: { district_id: school.district_id, name: `${school.name} Mới`, address: school.address ?? '', pupil_count: school.pupil_count ?? 0 },
    });
    expect(renamed.status).toBe(200);
    const hourAgo = new Date(server.clock.now().getTime() - 3_600_000 * 2);
    await server.db
      .insertInto('process_counters')
      .values({
        process_id: 'gone',
        started_at: hourAgo,
        updated_at: hourAgo,
        baseline_at: hourAgo,
        counters: JSON.stringify({ acknowledged: 0, within_2s: 0, rejected: 0, shed: 0 }),
        baseline: JSON.stringify({ acknowledged: 0, within_2s: 0, rejected: 0, shed: 0 }),
      })
      .execute();
    // Every write statement from now on is noted (a trigger per table): a GET must make none.
    await sql`CREATE TABLE get_writes (table_name text, operation text)`.execute(server.db);
    await sql`CREATE FUNCTION note_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO get_writes VALUES (TG_TABLE_NAME, TG_OP); RETURN NULL; END $$`.execute(server.db);
    const tables = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'get_writes'`.execute(server.db);
    for (const { name } of tables.rows) {
      await sql`CREATE TRIGGER note_write AFTER INSERT OR UPDATE OR DELETE ON ${sql.id(name)} FOR EACH STATEMENT EXECUTE FUNCTION note_write()`.execute(server.db);
    }
    await until(usable, 'reading from the replica');
    await until(async () => (await server.reads!.read(async (db) => db, { caughtUp: true })) !== server.db, 'caught up with the primary');
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await pair?.stop();
  });

  /** Concrete paths for each GET of the tree: real ids of the data above, so that the reads run. */
  async function concretePaths(): Promise<Map<string, string[]>> {
    const db = server.db;
    const one = async <T>(query: Promise<T | undefined>, what: string) => {
      const row = await query;
      if (!row) throw new Error(`no ${what} in the test data`);
      return row;
    };
    const seasons = await db.selectFrom('contests').select(['id', 'is_current']).orderBy('id').execute();
    const previous = seasons.find((s) => !s.is_current)!.id;
    const parent = await one(db.selectFrom('users').select('id').where('phone', '=', demoAccounts.parent.phone).executeTakeFirst(), 'parent');
    const child = await one(db.selectFrom('contestants').select('id').where('user_id', '=', parent.id).orderBy('id').executeTakeFirst(), 'child');
    const exam = await one(db.selectFrom('exams').select(['slug', 'book_id', 'contestant_id']).where('user_id', '=', parent.id).where('status', '=', 1).executeTakeFirst(), 'finished exam');
    const certificate = await one(db.selectFrom('certificates').select('code').where('contestant_id', 'is not', null).executeTakeFirst(), 'certificate');
    const schoolCertificate = await one(db.selectFrom('certificates').select('code').where('school_id', 'is not', null).executeTakeFirst(), 'school certificate');
    const news = await one(db.selectFrom('news_posts').select(['id', 'slug']).orderBy('id').executeTakeFirst(), 'news');
    const book = await one(db.selectFrom('books').select(['id', 'image']).orderBy('id').executeTakeFirst(), 'book');
    const [school, other] = await db.selectFrom('schools').select('id').orderBy('id').limit(2).execute();
    const [district, otherDistrict] = await db.selectFrom('districts').select('id').orderBy('id').limit(2).execute();
    const room = await one(db.selectFrom('class_rooms').select('id').orderBy('id').executeTakeFirst(), 'class room');
    const group = await one(db.selectFrom('class_groups').select('id').orderBy('id').executeTakeFirst(), 'class group');
    const account = await one(db.selectFrom('users').select('id').where('phone', '=', demoAccounts.organiser.phone).executeTakeFirst(), 'organiser');
    const media = /^\/api\/media\/(.+)$/.exec(book.image)?.[1] ?? 'none.png';
    const paths: Record<string, string[]> = {
      '/healthz': ['/healthz'],
      '/api/healthz': ['/api/healthz'],
      '/readyz': ['/readyz'],
      '/api/readyz': ['/api/readyz'],
      '/api/site': ['/api/site'],
      '/api/districts': ['/api/districts'],
      '/api/schools': [`/api/schools?district_id=${district!.id}`],
      '/api/class-groups': ['/api/class-groups'],
      '/api/class-rooms': [`/api/class-rooms?class_group_id=${group.id}`],
      '/api/books': ['/api/books'],
      '/api/blogs': ['/api/blogs'],
      '/api/winners': ['/api/winners', '/api/winners?school=le%20loi&page=2'],
      '/api/blog/:slug': [`/api/blog/${news.slug}`],
      '/api/docs': ['/api/docs'],
      '/api/docs/openapi.json': ['/api/docs/openapi.json'],
      '/api/docs/json': ['/api/docs/json'],
      '/api/docs/yaml': ['/api/docs/yaml'],
      '/api/docs/static/index.html': ['/api/docs/static/index.html'],
      '/api/docs/static/swagger-initializer.js': ['/api/docs/static/swagger-initializer.js'],
      '/api/docs/*': ['/api/docs/static/swagger-ui.css'],
      '/api/report-school': ['/api/report-school', `/api/report-school?season=${previous}`],
      // A school's certificates in one PDF (issue 37): none built in this data set, the reads still run.
      '/api/report-school/certificates': ['/api/report-school/certificates', `/api/report-school/certificates?season=${previous}`],
      '/api/report-school/certificates/:id': ['/api/report-school/certificates/1'],
      '/api/report-school/certificates/:id/pdf': ['/api/report-school/certificates/1/pdf'],
      '/api/report-parent': ['/api/report-parent', `/api/report-parent?season=${previous}`],
      '/api/report-parent/seasons': ['/api/report-parent/seasons'],
      '/api/sessions': ['/api/sessions'],
      // A token that was never issued: the exchange is refused without a write.
      '/api/customer/change-password': ['/api/customer/change-password?token=khong-co-lien-ket-nay'],
      '/api/customer/my-data': ['/api/customer/my-data'],
      '/api/customer/my-data.html': ['/api/customer/my-data.html'],
      '/api/children/:id/books': [`/api/children/${child.id}/books`],
      '/api/chilren-certificate': [`/api/chilren-certificate?child_id=${exam.contestant_id}`],
      '/api/certificates/verify/:code': [`/api/certificates/verify/${certificate.code}`, `/api/certificates/verify/${schoolCertificate.code}`],
      '/api/certificates/:code/:format': [`/api/certificates/${certificate.code}/pdf`, `/api/certificates/${schoolCertificate.code}/png`],
      '/api/profile': ['/api/profile'],
      '/api/practice/status': ['/api/practice/status'],
      '/api/practice/exams/:slug': ['/api/practice/exams/khong-co'],
      '/api/practice/exams/:slug/time': ['/api/practice/exams/khong-co/time'],
      '/api/practice/exams/:slug/result': ['/api/practice/exams/khong-co/result'],
      '/api/examing': [`/api/examing?book_id=${exam.book_id}&child_id=${exam.contestant_id}&slug_exam=${exam.slug}`],
      '/api/examing/get-time': ['/api/examing/get-time?exam_id=1'],
      '/api/exam-result': [`/api/exam-result?slug=${exam.slug}`],
      '/api/media/:file': [`/api/media/${media}`],
      '/api/admin/templates/:file': ['/api/admin/templates/schools.xlsx'],
      '/api/admin/audit': ['/api/admin/audit'],
      '/api/admin/accounts': ['/api/admin/accounts'],
      '/api/admin/accounts/:id': [`/api/admin/accounts/${account.id}`],
      '/api/admin/districts': ['/api/admin/districts'],
      '/api/admin/districts/:id/merge': [`/api/admin/districts/${district!.id}/merge?into_id=${otherDistrict!.id}`],
      '/api/admin/schools': ['/api/admin/schools'],
      '/api/admin/schools/:id/usage': [`/api/admin/schools/${school!.id}/usage`],
      '/api/admin/schools/:id/merge': [`/api/admin/schools/${school!.id}/merge?into_id=${other!.id}`],
      '/api/admin/site': ['/api/admin/site'],
      '/api/admin/site/certificate-images': ['/api/admin/site/certificate-images'],
      '/api/admin/seasons': ['/api/admin/seasons'],
      '/api/admin/class-groups': ['/api/admin/class-groups'],
      '/api/admin/class-rooms': ['/api/admin/class-rooms'],
      '/api/admin/class-rooms/:id/usage': [`/api/admin/class-rooms/${room.id}/usage`],
      '/api/admin/class-teachers': ['/api/admin/class-teachers'],
      '/api/admin/contest': ['/api/admin/contest'],
      '/api/admin/certificates': ['/api/admin/certificates?q=a'],
      '/api/admin/certificates/progress': ['/api/admin/certificates/progress'],
      '/api/admin/books': ['/api/admin/books', `/api/admin/books?season=${previous}`],
      '/api/admin/books/:bookId': [`/api/admin/books/${book.id}`],
      '/api/admin/books/:bookId/questions': [`/api/admin/books/${book.id}/questions`],
      '/api/admin/books/:bookId/quality': [`/api/admin/books/${book.id}/quality`],
      '/api/admin/books/:bookId/quality.xlsx': [`/api/admin/books/${book.id}/quality.xlsx`],
      '/api/admin/news': ['/api/admin/news'],
      '/api/admin/news/:id': [`/api/admin/news/${news.id}`],
      '/api/admin/privacy': ['/api/admin/privacy'],
      '/api/admin/privacy/statistics.xlsx': ['/api/admin/privacy/statistics.xlsx'],
      '/api/admin/regrades': ['/api/admin/regrades'],
      '/api/admin/results': ['/api/admin/results'],
      '/api/admin/results/task': ['/api/admin/results/task'],
      '/api/admin/results/winners.pdf': ['/api/admin/results/winners.pdf'],
      // Messages to families (issue 37): no campaign in this data set, the reads still run.
      '/api/opt-out/:token': ['/api/opt-out/abcdefghijklmnop'],
      '/api/admin/messages': ['/api/admin/messages'],
      '/api/admin/messages/campaigns': ['/api/admin/messages/campaigns'],
      '/api/admin/messages/campaigns/:id': ['/api/admin/messages/campaigns/1'],
      '/api/admin/messages/campaigns/:id/recipients.xlsx': ['/api/admin/messages/campaigns/1/recipients.xlsx'],
      '/api/admin/results/prizes': ['/api/admin/results/prizes', `/api/admin/results/prizes?season=${previous}`],
      '/api/admin/results/exports/:kind': ['winners', 'contestants', 'ceremony'].map((kind) => `/api/admin/results/exports/${kind}.xlsx`),
      '/api/admin/exam-days/dashboard': ['/api/admin/exam-days/dashboard'],
      '/api/admin/catalog/move.xlsx': ['/api/admin/catalog/move.xlsx'],
      '/api/admin/exam-days/contestants': ['/api/admin/exam-days/contestants?phone=0987'],
      '/api/admin/exam-days/contestants/:contestantId': [`/api/admin/exam-days/contestants/${child.id}`],
      '/api/admin/integrity': ['/api/admin/integrity'],
      '/api/admin/integrity/flags': ['/api/admin/integrity/flags'],
      '/api/admin/integrity/flags/:flagId': ['/api/admin/integrity/flags/1'],
      // The education offices' read-only area (issue 41): a unit of the scope, an unknown one (403).
      '/api/viewer/scope': ['/api/viewer/scope'],
      '/api/viewer/participation': ['/api/viewer/participation', `/api/viewer/participation?district_id=${district!.id}&school_q=le&page=2`, '/api/viewer/participation?district_id=999999'],
      '/api/viewer/results': ['/api/viewer/results'],
      '/api/viewer/participation.xlsx': ['/api/viewer/participation.xlsx', `/api/viewer/participation.xlsx?district_id=${district!.id}`],
      '/api/viewer/results.xlsx': ['/api/viewer/results.xlsx'],
    };
    return new Map(Object.entries(paths));
  }

  it('answers every GET of the API without a 5xx, as anyone, while reads go to the standby', { timeout: 300_000 }, async () => {
    const paths = await concretePaths();
    const templates = [...new Set(routesOfTree(server.app).filter((route) => route.method === 'GET').map((route) => route.path))];
    // A GET added to the API without a line above fails here, so that it is walked too.
    expect(templates.filter((template) => !paths.has(template))).toEqual([]);

    const before = { ...server.reads!.counts };
    const failures: string[] = [];
    const writes = new Set<string>();
    // Twice: the second time the dashboard's stored snapshot has aged past its lifetime.
    for (const round of [0, 1]) {
      if (round === 1) server.clock.advance(120_000);
      for (const template of templates) {
        for (const path of paths.get(template)!) {
          for (const [who, token] of Object.entries(tokens)) {
            const response = await fetch(server.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
            const text = await response.text();
            if (response.status >= 500) failures.push(`${response.status} ${path} as ${who}: ${text.slice(0, 300)}`);
            // A viewer's own pages are answered from the standby (an unknown unit is refused, 403).
            if (template.startsWith('/api/viewer/') && who.endsWith('Viewer') && response.status !== (path.includes('999999') ? 403 : 200)) {
              failures.push(`${response.status} ${path} as ${who}: ${text.slice(0, 300)}`);
            }
            const { rows: wrote } = await sql<{ table_name: string; operation: string }>`DELETE FROM get_writes RETURNING table_name, operation`.execute(server.db);
            const onlyTheViewsLine = AUDITED_VIEWS.has(template) && wrote.every((w) => w.table_name === 'audit_log' && w.operation === 'INSERT');
            if (wrote.length && !WRITING_BY_DESIGN.has(template) && !onlyTheViewsLine) writes.add(`${template} as ${who}: ${[...new Set(wrote.map((w) => `${w.operation} ${w.table_name}`))].join(', ')}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // No other GET runs a write statement (on the primary or anywhere).
    expect([...writes]).toEqual([]);
    // The replica stayed in use: the reads routed to it were served there, not hidden by a fallback.
    expect(usable()).toBe(true);
    expect(server.reads!.counts.replica - before.replica).toBeGreaterThan(50);

    // The earlier season's report of the renamed school, through the standby (the case that answered 500).
    const previous = (await server.db.selectFrom('contests').select('id').where('is_current', '=', false).executeTakeFirstOrThrow()).id;
    const report = await server.request('GET', `/api/report-school?season=${previous}`, { token: tokens.schoolAdmin });
    expect(report.status).toBe(200);
  });

  it('opens the replica read-only, with a statement timeout', async () => {
    const settings = await server.reads!.read(async (db) => {
      const { rows } = await sql<{ read_only: string; timeout: string }>`SELECT current_setting('default_transaction_read_only') AS read_only, current_setting('statement_timeout') AS timeout`.execute(db);
      return rows[0]!;
    });
    expect(settings).toEqual({ read_only: 'on', timeout: '2s' });
    // A write sent there fails loudly rather than being answered by the primary.
    await expect(server.reads!.read((db) => sql`CREATE TEMP TABLE written (id int)`.execute(db))).rejects.toMatchObject({ code: '25006' });
  });

  it('does not hold reads on a replica that hangs: they are answered by the primary while it is frozen', { timeout: 120_000 }, async () => {
    await until(usable, 'reading from the replica');
    // The standby's server as a frozen machine would leave it: the postmaster and all its processes stopped.
    // Its postmaster is the parent of a backend, read while that backend's connection is open.
    const client = new pg.Client({ connectionString: pair.replicaUrl });
    await client.connect();
    let postmaster: number;
    try {
      postmaster = parentOf(Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid));
    } finally {
      await client.end();
    }
    const frozen = serverProcesses(postmaster);
    for (const each of frozen) signal(each, 'SIGSTOP');
    try {
      const before = server.reads!.counts.primary;
      // Sent while the replica still looks usable: each waits for the timeout, then the primary answers.
      const answers = await Promise.all(['/api/districts', '/api/blogs', '/api/books', '/api/class-groups', `/api/report-school`, '/api/report-parent/seasons'].map((path, k) =>
        server.request('GET', path, { token: k >= 4 ? (k === 4 ? tokens.schoolAdmin : tokens.parent) : undefined })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(server.reads!.counts.primary).toBeGreaterThanOrEqual(before + 6);
      expect(usable()).toBe(false);
    } finally {
      for (const each of frozen) signal(each, 'SIGCONT');
    }
    await until(usable, 'back on the replica once it answers again', 60);
  });
});
