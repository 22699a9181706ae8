// The organiser's side of personal data (issue 15): the record of processing activities generated
// from the settings, the retention status, the anonymised statistics to keep before data goes,
// and requests made by phone call carried out with a reason that goes into the audit log.
import { relabelUnit } from '../../../../shared/unit-level';
import { sql } from 'kysely';
import { formatDate, formatDateTime } from '../../../../shared/format';
import { XlsxBuilder } from '../../../lib/xlsx-writer';
import { maskPhone, PRIVACY_NOTICE_VERSION } from '../../../../shared/privacy';
import { privacyAdminMessages, type PrivacyOverview } from '../../../../shared/schemas/admin-privacy';
import type { MyData } from '../../../../shared/schemas/privacy';
import type { Db } from '../../../db/client';
import { appError, notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import { getCurrentContest } from '../../../core/contest';
import type { AuthUser } from '../../../core/guard';
import { eraseAccounts, loadMyData, accountsPastRetention, currentRetention } from '../../privacy';
import { loadFooter } from '../../site';
import { recordAudit } from '../kit/audit';
import { countsOf } from '../../../db/counts';

type Actor = Pick<AuthUser, 'id' | 'phone'>;
const COUNT_DUE_LIMIT = 1_000_000;
const PRIZE_RECORD_YEARS = 10;

async function counts(db: Db): Promise<PrivacyOverview['counts']> {
  const { rows } = await sql<Record<keyof PrivacyOverview['counts'], string>>`
    SELECT
      (SELECT count(*) FROM users WHERE role = 'parent' AND deleted_at IS NULL) AS parents,
      (SELECT count(*) FROM users WHERE role = 'parent' AND deleted_at IS NULL AND privacy_version = ${PRIVACY_NOTICE_VERSION}) AS parents_consented_current,
      (SELECT count(*) FROM contestants WHERE anonymised_at IS NULL) AS contestants,
      (SELECT count(*) FROM contestants WHERE anonymised_at IS NOT NULL) AS contestants_anonymised,
      (SELECT count(*) FROM users WHERE deleted_at IS NOT NULL) AS accounts_deleted,
      (SELECT count(*) FROM prize_records) AS prize_records
  `.execute(db);
  return countsOf(rows[0]!);
}

/** GET /api/admin/privacy: the record, the retention status and the counts. */
export async function privacyOverview({ db, clock, config }: Pick<Services, 'db' | 'clock' | 'config'>): Promise<PrivacyOverview> {
  const now = clock.now();
  const [{ footer }, retention, due, runs, numbers, contest] = await Promise.all([
    loadFooter(db, config.site),
    currentRetention(db),
    accountsPastRetention(db, now, COUNT_DUE_LIMIT),
    db.selectFrom('retention_runs').selectAll().orderBy('ran_at', 'desc').limit(10).execute(),
    counts(db),
    getCurrentContest(db),
  ]);
  const until = retention.endsAt ? `, tức đến ${formatDate(retention.endsAt)} với cuộc thi hiện tại` : '';
  const sections = [
    {
      title: '1. Bên Kiểm soát và xử lý dữ liệu cá nhân',
      items: [footer.organiserName, `Địa chỉ: ${footer.organiserAddress}`, `Điện thoại: ${footer.hotline}`, `E-mail: ${footer.contactEmail}`],
    },
    {
      title: '2. Mục đích xử lý',
      items: [
        `Tổ chức cuộc thi${retention.contest ? ` "${retention.contest}"` : ''}: đăng ký dự thi, làm bài thi, chấm điểm.`,
        'Xếp hạng và trao giải (cá nhân, tập thể trường, giáo viên), cấp giấy chứng nhận.',
        'Báo cáo của trường cho quản trị trường; thống kê ẩn danh của cuộc thi.',
      ],
    },
    {
      title: '3. Chủ thể và loại dữ liệu',
      items: [
        'Phụ huynh: số điện thoại, mật khẩu (chỉ lưu dạng băm), họ tên nếu khai, thời điểm đồng ý với chính sách, ngày đăng nhập.',
        relabelUnit(
          'Thí sinh (học sinh tiểu học, 6 đến 11 tuổi): họ tên, quận/huyện, trường, khối, lớp, các bài thi với câu trả lời, điểm, thời gian làm bài, dự đoán, giải thưởng, giấy chứng nhận.',
          contest?.unit_level,
        ),
        'Quản trị trường và ban tổ chức: số điện thoại, họ tên, nhật ký thao tác.',
        'Không thu thập dữ liệu cá nhân nhạy cảm. Dữ liệu của trẻ em được xử lý với sự đồng ý của cha mẹ và của trẻ từ 7 tuổi trở lên.',
      ],
    },
    {
      title: '4. Bên nhận dữ liệu',
      items: [
        'Quản trị trường: họ tên, lớp và kết quả của học sinh trường mình.',
        'Công chúng: trang xác minh giấy chứng nhận chỉ hiện nội dung in trên giấy.',
        'Nhà cung cấp dịch vụ tin nhắn: số điện thoại và mã xác nhận, chỉ để gửi tin.',
        'Không chuyển dữ liệu ra nước ngoài.',
      ],
    },
    {
      title: '5. Thời hạn lưu trữ',
      items: [
        `Dữ liệu cá nhân được lưu ${retention.months} tháng sau ngày công bố kết quả của cuộc thi mà tài khoản tham gia lần cuối${until}; sau đó tài khoản bị xoá, tên thí sinh được ẩn danh, điểm được giữ cho thống kê.`,
        `Danh sách giải thưởng đã trao (họ tên, trường, lớp, giải, giá trị) được lưu ${PRIZE_RECORD_YEARS} năm như chứng từ kế toán.`,
        `Nhật ký thao tác được lưu ${retention.months} tháng.`,
      ],
    },
    {
      title: '6. Biện pháp bảo vệ',
      items: [
        'Kết nối mã hoá (HTTPS); mật khẩu băm bằng scrypt; mã xác nhận qua tin nhắn cho đăng ký, đổi mật khẩu và xoá tài khoản.',
        'Phân quyền: phụ huynh chỉ thấy con mình, quản trị trường chỉ thấy trường mình, ban tổ chức thao tác có ghi nhật ký.',
        'Nhật ký hệ thống không ghi số điện thoại đầy đủ, mật khẩu, mã xác nhận hay mã phiên.',
        'Sao lưu cơ sở dữ liệu định kỳ và kiểm tra khôi phục.',
      ],
    },
    {
      title: '7. Quyền của chủ thể dữ liệu',
      items: [
        `Chính sách bảo mật hiện hành: phiên bản ${formatDate(`${PRIVACY_NOTICE_VERSION}T12:00:00+07:00`)}; ${numbers.parents_consented_current} trên ${numbers.parents} tài khoản phụ huynh đã đồng ý phiên bản này.`,
        'Phụ huynh tự tải dữ liệu và xoá tài khoản tại trang Tài khoản; yêu cầu qua điện thoại được ban tổ chức thực hiện và ghi lý do vào nhật ký thao tác.',
      ],
    },
  ];
  return {
    record: { title: 'Hồ sơ ghi nhận hoạt động xử lý dữ liệu cá nhân', generated_at: now.toISOString(), sections },
    retention: {
      months: retention.months,
      contest: retention.contest,
      results_at: retention.resultsAt?.toISOString() ?? null,
      ends_at: retention.endsAt?.toISOString() ?? null,
      due_accounts: due.length,
      runs: runs.map(({ id: _id, ran_at, ...rest }) => ({ ran_at: ran_at.toISOString(), ...rest })),
    },
    counts: numbers,
  };
}

/** A parent's account, or the reason the organiser cannot act on it. */
async function parentAccount(db: Db, userId: number) {
  const account = await db.selectFrom('users').select(['id', 'phone', 'role', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
  if (!account) throw notFound(privacyAdminMessages.accountNotFound);
  if (account.role !== 'parent') throw appError('not_a_parent', privacyAdminMessages.parentsOnly);
  if (account.deleted_at) throw appError('account_deleted', privacyAdminMessages.alreadyDeleted);
  return account;
}

/** POST /api/admin/privacy/accounts/:id/copy: the parent's copy, handed over by the organiser. */
export async function copyForSubject(deps: Pick<Services, 'db' | 'clock'>, actor: Actor, userId: number, reason: string): Promise<MyData> {
  const account = await parentAccount(deps.db, userId);
  const data = await loadMyData(deps, account.id);
  await recordAudit(deps.db, actor, {
    kind: 'privacy.copy',
    summary: `Cung cấp bản sao dữ liệu của tài khoản ${maskPhone(account.phone)} theo yêu cầu`,
    details: { account_id: account.id, reason },
  });
  return data;
}

/** POST /api/admin/privacy/accounts/:id/erase: the deletion the parent asked for by phone. */
export async function eraseForSubject({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor, userId: number, reason: string) {
  return db.transaction().execute(async (trx) => {
    const account = await parentAccount(trx, userId);
    const counts = await eraseAccounts(trx, [account], clock.now());
    await recordAudit(trx, actor, {
      kind: 'privacy.erase',
      summary: `Xoá tài khoản ${maskPhone(account.phone)} theo yêu cầu`,
      details: { account_id: account.id, reason, contestants_deleted: counts.contestantsDeleted, contestants_anonymised: counts.contestantsAnonymised },
    });
    return { contestants_deleted: counts.contestantsDeleted, contestants_anonymised: counts.contestantsAnonymised };
  });
}

const STATISTICS_COLUMNS = [
  'Quận/huyện',
  'Trường',
  'Số học sinh của trường',
  'Số thí sinh đăng ký',
  'Số thí sinh dự thi',
  'Số bài thi đã nộp',
  'Điểm trung bình (bài tốt nhất)',
  'Số giải cá nhân',
] as const;

/**
 * GET /api/admin/privacy/statistics.xlsx: the contest's figures per school, without a name or a
 * phone, to keep once personal data is removed.
 */
export async function anonymisedStatistics({ db }: Pick<Services, 'db'>): Promise<Buffer> {
  const contest = await db.selectFrom('contests').select(['id', 'unit_level']).where('is_current', '=', true).executeTakeFirst();
  const contestId = contest?.id ?? 0;
  const { rows } = await sql<{ district: string; school: string; pupils: number; registered: string; participants: string; exams: string; average: number | null; prizes: string }>`
    SELECT d.name AS district, s.name AS school, s.pupil_count AS pupils,
      (SELECT count(*) FROM contestants c WHERE c.school_id = s.id AND c.contest_id = ${contestId}) AS registered,
      (SELECT count(DISTINCT e.contestant_id) FROM exams e JOIN contestants c ON c.id = e.contestant_id WHERE c.school_id = s.id AND e.contest_id = ${contestId} AND e.status = 1) AS participants,
      (SELECT count(*) FROM exams e JOIN contestants c ON c.id = e.contestant_id WHERE c.school_id = s.id AND e.contest_id = ${contestId} AND e.status = 1) AS exams,
      (SELECT avg(best) FROM (
        SELECT max(e.points) AS best FROM exams e JOIN contestants c ON c.id = e.contestant_id
        WHERE c.school_id = s.id AND e.contest_id = ${contestId} AND e.status = 1 GROUP BY e.contestant_id
      ) b) AS average,
      (SELECT count(*) FROM individual_results r WHERE r.school_id = s.id AND r.contest_id = ${contestId} AND r.prize_code IS NOT NULL) AS prizes
    FROM schools s JOIN districts d ON d.id = s.district_id
    ORDER BY d.name, s.name
  `.execute(db);
  const xlsx = new XlsxBuilder();
  xlsx.sheet({
    name: 'Thống kê ẩn danh',
    headings: STATISTICS_COLUMNS.map((title) => relabelUnit(title, contest?.unit_level)),
    // The average has one decimal (a decimal comma in a Vietnamese Excel).
    kinds: ['text', 'text', 'number', 'number', 'number', 'number', 'score', 'number'],
    widths: STATISTICS_COLUMNS.map((title) => Math.max(14, title.length + 2)),
  });
  try {
    await xlsx.rows(
      rows.map((row) => [
        row.district,
        row.school,
        Number(row.pupils),
        Number(row.registered),
        Number(row.participants),
        Number(row.exams),
        row.average === null ? null : Math.round(Number(row.average) * 10) / 10,
        Number(row.prizes),
      ]),
    );
  } catch (error) {
    await xlsx.abandon();
    throw error;
  }
  return xlsx.finish();
}

export const statisticsFileName = (now: Date) => `thong-ke-an-danh-${formatDateTime(now).replace(/[^0-9]+/g, '-')}.xlsx`;
