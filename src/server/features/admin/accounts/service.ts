// The back office's accounts: find and show an account, create school administrators (one by one
// or from a spreadsheet) with a one-time set-password link, issue a reset link, lock and unlock.
// Every change is audited in its transaction; SMS leave only after the commit, and a failed SMS
// undoes nothing (the organiser is told and has the link on screen).
import { templateColumns, type ImportCounts, type ImportUpdate } from '../../../../shared/schemas/admin';
import { adminAccountMessages, roleLabels, type AccountsQuery, type PasswordLink } from '../../../../shared/schemas/admin-accounts';
import { mobilePhoneSchema } from '../../../../shared/schemas/auth';
import type { Services } from '../../../services';
import type { Db } from '../../../db/client';
import { appError, notFound } from '../../../lib/errors';
import { createResetLink, createResetLinks, RESET_LINK_DEFAULT_HOURS } from '../../auth';
import { recordAudit, type Actor } from '../kit/audit';
import { tableFile } from '../kit/file-reader';
import { runImport } from '../kit/imports';
import { breather, chunks, type ImportProblems } from '../kit/sheets';
import type { Upload } from '../kit/uploads';
import * as repo from './repo';
import { isUniqueViolation } from '../../../db/errors';

export type AccountsDeps = Pick<Services, 'db' | 'clock' | 'config' | 'sms'>;


/**
 * The SMS texts. Without diacritics, like the OTP's (auth/otp.ts): carriers register brand-name
 * templates unaccented, and accented text costs twice as many segments.
 */
export const smsTexts = {
  newSchoolAdmin: (url: string) =>
    `Tai khoan quan tri truong cua ban tai cuoc thi Dai su Van hoa doc da duoc tao. Dat mat khau tai: ${url} (dung 1 lan, het han sau ${RESET_LINK_DEFAULT_HOURS} gio).`,
  newViewer: (url: string) =>
    `Tai khoan xem so lieu cuoc thi Dai su Van hoa doc cua ban da duoc tao. Dat mat khau tai: ${url} (dung 1 lan, het han sau ${RESET_LINK_DEFAULT_HOURS} gio).`,
  resetLink: (url: string) =>
    `Dat lai mat khau tai khoan cuoc thi Dai su Van hoa doc tai: ${url} (dung 1 lan, het han sau ${RESET_LINK_DEFAULT_HOURS} gio).`,
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const toSummary = (row: NonNullable<Awaited<ReturnType<typeof repo.findAccount>>>) => ({
  id: row.id,
  phone: row.phone,
  name: row.name,
  role: row.role,
  school_name: row.school_name,
  district_name: row.district_name,
  scope: row.scope,
  created_at: row.created_at.toISOString(),
  locked_at: iso(row.locked_at),
});

// Reading -------------------------------------------------------------------------------------

export async function listAccounts(deps: Pick<Services, 'db'>, query: AccountsQuery) {
  const page = await repo.listAccounts(deps.db, query);
  return { ...page, items: page.items.map(toSummary) };
}

export async function accountDetail(deps: Pick<Services, 'db' | 'clock'>, id: number) {
  const { db, clock } = deps;
  const account = await repo.findAccount(db, id);
  if (!account) throw notFound(adminAccountMessages.notFound);
  const [liveSessions, contestants, exams] = await Promise.all([
    repo.countLiveSessions(db, id, clock.now()),
    repo.contestantsOf(db, id),
    repo.examsOf(db, id),
  ]);
  return {
    ...toSummary(account),
    live_sessions: liveSessions,
    contestants: contestants.map((contestant) => ({
      ...contestant,
      class_name: contestant.class_name ?? '',
      exams: exams
        .filter((exam) => exam.contestant_id === contestant.id)
        .map(({ contestant_id: _, ...exam }) => ({ ...exam, start_time: exam.start_time.toISOString(), submitted_at: iso(exam.submitted_at) })),
    })),
  };
}

// SMS after the commit --------------------------------------------------------------------------

/** Sends one SMS per link; returns the phones whose message did not leave. */
export async function sendLinks(deps: Pick<Services, 'sms'>, links: PasswordLink[], text: (url: string) => string): Promise<string[]> {
  const failed: string[] = [];
  for (const link of links) {
    try {
      await deps.sms.send(link.phone, text(link.url));
    } catch {
      failed.push(link.phone);
    }
  }
  return failed;
}

// One school administrator ----------------------------------------------------------------------

export async function createSchoolAdmin(
  deps: AccountsDeps,
  actor: Actor,
  input: { phone: string; name: string; district_id: number; school_id: number },
) {
  const { db, clock, config } = deps;
  const school = await repo.findSchool(db, input.school_id);
  if (!school || school.district_id !== input.district_id) {
    throw appError('invalid_input', adminAccountMessages.schoolNotInDistrict, { school_id: adminAccountMessages.schoolNotInDistrict });
  }
  const taken = () => appError('phone_taken', adminAccountMessages.phoneTaken, { phone: adminAccountMessages.phoneTaken });
  let created: { id: number; url: string; expiresAt: Date };
  try {
    created = await db.transaction().execute(async (trx) => {
      const [user] = await repo.insertSchoolAdmins(trx, [{ phone: input.phone, name: input.name, school_id: school.id }], clock.now());
      if (!user) throw taken();
      const link = await createResetLink(trx, { clock, publicUrl: config.publicUrl }, user.id);
      await recordAudit(trx, actor, {
        kind: 'account.create',
        summary: `Tạo tài khoản quản trị trường ${input.phone} (${input.name}, ${school.name})`,
        details: { after: { phone: input.phone, name: input.name, role: 'school_admin', school: school.name, district: school.district_name } },
      });
      return { id: user.id, ...link };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  const failed = await sendLinks(deps, [{ phone: input.phone, url: created.url }], smsTexts.newSchoolAdmin);
  return linkAnswer(created.id, input.phone, created.url, created.expiresAt, failed.length === 0);
}

export const linkAnswer = (accountId: number, phone: string, url: string, expiresAt: Date, smsSent: boolean) => ({
  account_id: accountId,
  phone,
  url,
  expires_at: expiresAt.toISOString(),
  sms_sent: smsSent,
  ...(smsSent ? {} : { message: adminAccountMessages.smsFailed }),
});

// Import ---------------------------------------------------------------------------------------

const COLUMNS = templateColumns['school-admins'];
const [PHONE, NAME, DISTRICT, SCHOOL] = COLUMNS as [string, string, string, string];
/** Names compared as people see them: case aside (cells are already NFC with single spaces). */
const nameKey = (name: string) => name.toLocaleLowerCase('vi');

/** A phone typed into a number cell loses its leading 0 (912345678): it is put back. */
const phoneFromCell = (cell: string) => (/^[35789][0-9]{8}$/.test(cell) ? `0${cell}` : cell);

const NAME_MAX = 120;
export const validName = (name: string) => name.length > 0 && name.length <= NAME_MAX;

/** An account import's row: its phone and name checked (problems under their columns); the phone when it is valid. */
export function checkPhoneAndName(problems: ImportProblems, row: number, phoneCell: string, name: string, columns: { phone: string; name: string }) {
  const phone = mobilePhoneSchema.safeParse(phoneFromCell(phoneCell));
  if (!phoneCell) problems.add(row, columns.phone, 'không được để trống');
  else if (!phone.success) problems.add(row, columns.phone, `"${phoneCell}" không phải số di động hợp lệ (10 chữ số, bắt đầu 03, 05, 07, 08 hoặc 09)`);
  if (!name) problems.add(row, columns.name, 'không được để trống');
  else if (name.length > NAME_MAX) problems.add(row, columns.name, `không được quá ${NAME_MAX} ký tự`);
  return phone.success ? phone.data : undefined;
}

interface AdminRow {
  row: number;
  phone: string;
  name: string;
  schoolId: number;
}

const listChanged = () => appError('phone_taken', adminAccountMessages.listChanged);

/** Accounts per statement and per batch of reset links: a slice of hashing, then the database's turn. */
const SLICE = 500;

/**
 * POST /school-admins/import: every row checked (phone, name, the school in its district, the
 * phone not a parent's or an organiser's); a school administrator already there is updated when
 * the name or school differ, else left. One transaction; a link per created account, sent by SMS
 * after the commit.
 */
export async function importSchoolAdmins(deps: AccountsDeps, actor: Actor, upload: Upload) {
  const { clock, config } = deps;
  const answer = await runImport(deps, actor, upload, {
    read: tableFile('school-admins'),
    raced: listChanged,
    async preview(db, table, { problems }) {
      // One after the other: an import holds at most one pool connection.
      const districts = await repo.listDistricts(db);
      const schools = await repo.listSchools(db);
      const districtIds = new Map(districts.map((d) => [nameKey(d.name), d.id]));
      const schoolIds = new Map(schools.map((s) => [`${s.district_id}|${nameKey(s.name)}`, s.id]));

      const rows: AdminRow[] = [];
      const phoneKeys: { row: number; key: string }[] = [];
      const breathe = breather();
      for (const { row, cells } of table) {
        await breathe();
        const [phoneCell, name, districtName, schoolName] = cells as [string, string, string, string];
        const phone = checkPhoneAndName(problems, row, phoneCell, name, { phone: PHONE, name: NAME });
        if (phone) phoneKeys.push({ row, key: phone });
        const districtId = districtIds.get(nameKey(districtName));
        if (!districtName) problems.add(row, DISTRICT, 'không được để trống');
        else if (districtId === undefined) problems.add(row, DISTRICT, `không có quận/huyện "${districtName}" trong danh mục`);
        const schoolId = districtId === undefined ? undefined : schoolIds.get(`${districtId}|${nameKey(schoolName)}`);
        if (!schoolName) problems.add(row, SCHOOL, 'không được để trống');
        else if (districtId !== undefined && schoolId === undefined) problems.add(row, SCHOOL, `không có trường "${schoolName}" ở ${districtName}`);
        if (phone && validName(name) && schoolId !== undefined) rows.push({ row, phone, name, schoolId });
      }
      await problems.duplicates(phoneKeys, PHONE);

      const existing = new Map((await repo.findUsersByPhones(db, rows.map((r) => r.phone))).map((user) => [user.phone, user]));
      const toCreate: AdminRow[] = [];
      const toUpdate: (AdminRow & { id: number })[] = [];
      const changes: ImportUpdate[] = [];
      const schoolNames = new Map(schools.map((s) => [s.id, s.name]));
      const schoolName = (id: number | null) => (id === null ? '' : (schoolNames.get(id) ?? ''));
      let unchanged = 0;
      for (const row of rows) {
        await breathe();
        const user = existing.get(row.phone);
        if (!user) toCreate.push(row);
        else if (user.role !== 'school_admin') problems.add(row.row, PHONE, adminAccountMessages.phoneOfOtherRole(roleLabels[user.role]));
        else if (nameKey(user.name) !== nameKey(row.name) || user.school_id !== row.schoolId) {
          // A name in another spelling of the same name (nameKey) stays as stored.
          const sameName = nameKey(user.name) === nameKey(row.name);
          toUpdate.push({ ...row, name: sameName ? user.name : row.name, id: user.id });
          const fields: ImportUpdate['changes'] = [];
          if (!sameName) fields.push({ field: NAME, before: user.name, after: row.name });
          if (user.school_id !== row.schoolId) fields.push({ field: SCHOOL, before: schoolName(user.school_id), after: schoolName(row.schoolId) });
          changes.push({ row: row.row, key: row.phone, changes: fields });
        } else unchanged += 1;
      }
      const counts: ImportCounts = { created: toCreate.length, updated: toUpdate.length, unchanged };
      return {
        counts,
        answer: { links: [] as PasswordLink[] },
        updates: changes,
        async store(trx) {
          const now = clock.now();
          const links: PasswordLink[] = [];
          const created: string[] = [];
          // In slices: a statement's parameters stay far under PostgreSQL's 65,535, and hashing
          // the reset tokens of 20,000 accounts never holds the event loop in one go.
          for (const part of chunks(toCreate, SLICE)) {
            const made = await repo.insertSchoolAdmins(trx, part.map((r) => ({ phone: r.phone, name: r.name, school_id: r.schoolId })), now);
            // A phone registered between the check and now: nothing is stored, the organiser retries.
            if (made.length !== part.length) throw listChanged();
            const phoneOf = new Map(made.map((user) => [user.id, user.phone]));
            const issued = await createResetLinks(trx, { clock, publicUrl: config.publicUrl }, made.map((user) => user.id));
            for (const link of issued) links.push({ phone: phoneOf.get(link.userId)!, url: link.url });
            for (const user of made) created.push(user.phone);
          }
          for (const part of chunks(toUpdate, SLICE)) await repo.updateSchoolAdmins(trx, part.map((row) => ({ id: row.id, name: row.name, school_id: row.schoolId })));
          return {
            answer: { links },
            audit: {
              kind: 'school_admins.import',
              summary: `Nhập tệp ${upload.fileName}: thêm ${counts.created}, cập nhật ${counts.updated}, giữ nguyên ${counts.unchanged} quản trị trường`,
              details: { file: upload.fileName, counts, created, updated: toUpdate.map((row) => row.phone) },
            },
          };
        },
      };
    },
  });
  if ('errors_file' in answer) return answer;
  if (answer.dry_run) return { ...answer, sms_failed: [] };
  const smsFailed = await sendLinks(deps, answer.links, smsTexts.newSchoolAdmin);
  return { ...answer, sms_failed: smsFailed, ...(smsFailed.length > 0 ? { message: adminAccountMessages.smsFailed } : {}) };
}

// Reset link, lock, unlock ---------------------------------------------------------------------

async function lockedRow(db: Db, id: number) {
  // FOR UPDATE: a lock and a link for the same account do not cross.
  const row = await repo.lockUser(db, id);
  if (!row) throw notFound(adminAccountMessages.notFound);
  return row;
}

export async function issueResetLinkFor(deps: AccountsDeps, actor: Actor, id: number) {
  const { db, clock, config } = deps;
  const issued = await db.transaction().execute(async (trx) => {
    const user = await lockedRow(trx, id);
    if (user.locked_at) throw appError('account_locked', adminAccountMessages.lockedNoLink);
    const link = await createResetLink(trx, { clock, publicUrl: config.publicUrl }, user.id);
    await recordAudit(trx, actor, { kind: 'account.reset_link', summary: `Cấp liên kết đặt mật khẩu cho tài khoản ${user.phone}` });
    return { phone: user.phone, ...link };
  });
  const failed = await sendLinks(deps, [{ phone: issued.phone, url: issued.url }], smsTexts.resetLink);
  return linkAnswer(id, issued.phone, issued.url, issued.expiresAt, failed.length === 0);
}

/** Locks (or unlocks) an account: a locked one cannot log in, its sessions and unused links end now. */
export async function setAccountLocked(deps: Pick<Services, 'db' | 'clock'>, actor: Actor, id: number, locked: boolean) {
  const { db, clock } = deps;
  if (locked && id === actor.id) throw appError('cannot_lock_self', adminAccountMessages.cannotLockSelf);
  return db.transaction().execute(async (trx) => {
    const user = await lockedRow(trx, id);
    const now = clock.now();
    const lockedAt = locked ? (user.locked_at ?? now) : null;
    await repo.setLocked(trx, id, lockedAt);
    let sessionsEnded = 0;
    if (locked) {
      sessionsEnded = await repo.revokeSessions(trx, id, now);
      await repo.deleteUnusedResetLinks(trx, id);
    }
    await recordAudit(trx, actor, {
      kind: locked ? 'account.lock' : 'account.unlock',
      summary: locked
        ? `Khoá tài khoản ${user.phone}${sessionsEnded > 0 ? ` (kết thúc ${sessionsEnded} phiên đăng nhập)` : ''}`
        : `Mở khoá tài khoản ${user.phone}`,
      details: { before: { locked_at: iso(user.locked_at) }, after: { locked_at: iso(lockedAt) } },
    });
    return { locked_at: iso(lockedAt), sessions_ended: sessionsEnded };
  });
}

// Command line ----------------------------------------------------------------------------------

/**
 * npm run cli -- create-organiser: a new organiser account and its one-time set-password link.
 * Refused (409) when the phone already has an account of any kind. Audited as done by the new
 * account itself (there is no logged-in organiser on the command line).
 */
export async function createOrganiserAccount(deps: Pick<Services, 'db' | 'clock'> & { publicUrl: string }, input: { phone: string; name: string }) {
  const { db, clock } = deps;
  const taken = () => appError('phone_taken', adminAccountMessages.phoneTaken, { phone: adminAccountMessages.phoneTaken });
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await repo.insertOrganiser(trx, input.phone, input.name, clock.now());
      if (!user) throw taken();
      const link = await createResetLink(trx, { clock, publicUrl: deps.publicUrl }, user.id);
      await recordAudit(trx, user, {
        kind: 'account.create',
        summary: `Tạo tài khoản ban tổ chức ${input.phone} (${input.name}) bằng dòng lệnh`,
        details: { after: { phone: input.phone, name: input.name, role: 'organiser' } },
      });
      return { id: user.id, phone: user.phone, ...link };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}
