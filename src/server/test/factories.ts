// Test factories: rows made directly in the database, for API tests that need a parent, a
// school administrator or contestants without going through the SMS flow.
import { PRIVACY_NOTICE_VERSION } from '../../shared/privacy';
import { booksOfGroup } from '../demo/finished-exams';
import type { Db } from '../db/client';
import { hashPassword } from '../lib/password';
import { hashToken, newToken } from '../lib/tokens';
import type { TestServer } from './harness';

let phoneCounter = 0;
/** A unique valid mobile number per call within a test file. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `09${String(10_000_000 + ((process.pid * 1000 + phoneCounter) % 90_000_000)).slice(-8)}`;
}

export interface CreatedUser {
  id: number;
  phone: string;
  password: string;
  /** A valid bearer token for this user. */
  token: string;
}

async function startSession(server: TestServer, userId: number): Promise<string> {
  const token = newToken();
  await server.db
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: hashToken(token), expires_at: new Date(server.clock.now().getTime() + 86_400_000) })
    .execute();
  return token;
}

export async function createParent(server: TestServer, overrides: { phone?: string; password?: string } = {}): Promise<CreatedUser> {
  const phone = overrides.phone ?? nextPhone();
  const password = overrides.password ?? 'matkhau123';
  const { id } = await server.db
    .insertInto('users')
    .values({
      phone,
      password_hash: await hashPassword(password),
      role: 'parent',
      school_id: null,
      // Registered through the form: agreed to the current privacy notice.
      privacy_version: PRIVACY_NOTICE_VERSION,
      privacy_consented_at: server.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, phone, password, token: await startSession(server, id) };
}

export async function createSchoolAdmin(server: TestServer, schoolId?: number): Promise<CreatedUser & { schoolId: number }> {
  const school = schoolId ?? (await firstSchool(server.db)).id;
  const phone = nextPhone();
  const password = 'truong123';
  const { id } = await server.db
    .insertInto('users')
    .values({ phone, name: 'Quản trị trường', password_hash: await hashPassword(password), role: 'school_admin', school_id: school })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, phone, password, token: await startSession(server, id), schoolId: school };
}

export async function createOrganiser(server: TestServer): Promise<CreatedUser> {
  const phone = nextPhone();
  const password = 'bantochuc123';
  const { id } = await server.db
    .insertInto('users')
    .values({ phone, name: 'Ban tổ chức', password_hash: await hashPassword(password), role: 'organiser', school_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, phone, password, token: await startSession(server, id) };
}

/** An education office's viewer (0051): of the whole province, or of `districtIds` (a unit viewer). */
export async function createViewer(server: TestServer, districtIds: number[] = []): Promise<CreatedUser> {
  const phone = nextPhone();
  const password = 'xemsolieu123';
  const passwordHash = await hashPassword(password);
  const id = await server.db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({ phone, name: 'Phòng Giáo dục', password_hash: passwordHash, role: districtIds.length ? 'unit_viewer' : 'province_viewer', school_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (districtIds.length) await trx.insertInto('viewer_units').values(districtIds.map((districtId) => ({ user_id: user.id, district_id: districtId }))).execute();
    return user.id;
  });
  return { id, phone, password, token: await startSession(server, id) };
}

/** A book of the first class group, added through the back office's API; its id. */
export async function createBook(server: TestServer, organiser: CreatedUser, book: { name: string; author: string }): Promise<number> {
  const groupId = (await server.db.selectFrom('class_groups').select('id').orderBy('position').executeTakeFirstOrThrow()).id;
  const created = await server.request('POST', '/api/admin/books', { token: organiser.token, body: { ...book, class_group_id: groupId } });
  return created.body.data.id;
}

/** A user of each role: the organiser, and a parent and a school administrator whom the back office refuses. */
export async function createEveryRole(server: TestServer) {
  return { organiser: await createOrganiser(server), parent: await createParent(server), schoolAdmin: await createSchoolAdmin(server) };
}
export type EveryRole = Awaited<ReturnType<typeof createEveryRole>>;

/**
 * The statuses an organiser-only call answers without a session, to a parent and to a school
 * administrator, in that order: [401, 403, 403] when the back office refuses them.
 */
export async function refusedStatuses(
  server: TestServer,
  { parent, schoolAdmin }: { parent: CreatedUser; schoolAdmin: CreatedUser },
  method: string,
  path: string,
  body?: unknown,
): Promise<number[]> {
  const statuses: number[] = [];
  for (const token of [undefined, parent.token, schoolAdmin.token]) statuses.push((await server.request(method, path, { body, token })).status);
  return statuses;
}

/** A multipart form with `file` (name and content) and text fields, for the admin imports. */
export function uploadForm(fileName: string, content: Buffer | string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return form;
}

export async function firstSchool(db: Db) {
  return db.selectFrom('schools').select(['id', 'district_id', 'name']).orderBy('id').limit(1).executeTakeFirstOrThrow();
}

/** The class group of a grade-group position (1, 2 or 3) with its first class room and books. */
export async function classGroupAt(db: Db, position: 1 | 2 | 3) {
  const group = await db.selectFrom('class_groups').select(['id', 'name']).where('position', '=', position).executeTakeFirstOrThrow();
  const room = await db.selectFrom('class_rooms').select(['id', 'name']).where('class_group_id', '=', group.id).orderBy('position').limit(1).executeTakeFirstOrThrow();
  return { ...group, classRoom: room, books: await booksOfGroup(db, group.id) };
}

export interface ContestantOverrides {
  fullname?: string;
  position?: number;
  groupPosition?: 1 | 2 | 3;
  schoolId?: number;
  classRoomOther?: string;
}

export async function createContestant(server: TestServer, parent: { id: number }, overrides: ContestantOverrides = {}) {
  const db = server.db;
  const school = overrides.schoolId
    ? await db.selectFrom('schools').select(['id', 'district_id']).where('id', '=', overrides.schoolId).executeTakeFirstOrThrow()
    : await firstSchool(db);
  const group = await classGroupAt(db, overrides.groupPosition ?? 3);
  const taken = await db.selectFrom('contestants').select('position').where('user_id', '=', parent.id).execute();
  const position = overrides.position ?? [1, 2, 3].find((p) => !taken.some((t) => t.position === p))!;
  const row = await db
    .insertInto('contestants')
    .values({
      user_id: parent.id,
      position,
      fullname: overrides.fullname ?? `Nguyễn Văn Thí Sinh ${position}`,
      district_id: school.district_id,
      school_id: school.id,
      class_group_id: group.id,
      class_room_id: overrides.classRoomOther ? null : group.classRoom.id,
      class_room_other: overrides.classRoomOther ?? null,
    })
    .returning(['id', 'fullname', 'school_id', 'class_group_id', 'class_room_id'])
    .executeTakeFirstOrThrow();
  return { ...row, books: group.books };
}

/** Starts a computation of the results as the organiser `token` and waits for its task to finish; answers the finished task. */
export async function computeResultsTask(server: TestServer, token: string, force = false) {
  const started = await server.request('POST', '/api/admin/results/compute', { token, body: { force } });
  if (started.status !== 202) throw new Error(`compute answered ${started.status}: ${JSON.stringify(started.body)}`);
  for (let i = 0; i < 200; i += 1) {
    const task = (await server.request('GET', '/api/admin/results/task', { token })).body.data;
    if (task.status !== 'running') return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the computation did not finish');
}
