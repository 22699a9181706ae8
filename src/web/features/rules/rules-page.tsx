// The contest rules (spec section 9). Prizes come from src/shared/prizes.ts, the books from
// GET /api/books and every date from the contest's settings (GET /api/site).
import { formatDate, formatMoney, formatTime } from '../../../shared/format';
import { DEFAULT_CLASS_MIN_PARTICIPANTS, INDIVIDUAL_RANKING_RULES, TIE_RULE, teacherPrizeRule } from '../../../shared/ranking-rules';
import { SCHOOL_SCORE_FORMULA, prizeTotal, prizesOfKind, tierTotal, type PrizeTier } from '../../../shared/prizes';
import {
  DEFAULT_EXAM_DURATION_SECONDS,
  MAX_ATTEMPTS_PER_CONTESTANT,
  MAX_CONTESTANTS_PER_ACCOUNT,
  MAX_POINTS,
  POINTS_PER_CORRECT_ANSWER,
  QUESTIONS_PER_EXAM,
} from '../../../shared/rules';
import { useBookGroups } from '../../components/use-book-groups';
import { Link } from '../../lib/router';
import { winnersMessages } from '../../../shared/messages/winners';
import { mayTakeExams, useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { useSite, type SiteContest } from '../../lib/site';
import './rules.css';

const SECTIONS = [
  { id: 'muc-dich', title: 'Mục đích' },
  { id: 'doi-tuong', title: 'Đối tượng tham gia' },
  { id: 'sach-du-thi', title: 'Sách dự thi' },
  { id: 'thoi-gian', title: 'Thời gian' },
  { id: 'cach-thi', title: 'Cách thức thi' },
  { id: 'xep-hang', title: 'Cách xếp hạng' },
  { id: 'giai-thuong', title: 'Giải thưởng' },
] as const;

const title = (id: (typeof SECTIONS)[number]['id']) => SECTIONS.find((section) => section.id === id)!.title;

const atTime = (iso: string) => `${formatTime(iso)} ngày ${formatDate(iso)}`;

// Every date comes from the contest's settings (GET /api/site); none is shown until they arrive.
function Timeline({ contest }: { contest: SiteContest | null | undefined }) {
  if (!contest) return <div className="rules-books-placeholder" aria-busy="true" />;
  const rows = [
    { stage: 'Đọc sách và phát động cuộc thi', time: `Từ ${formatDate(contest.reading_starts_at)} đến ${formatDate(contest.reading_ends_at)}` },
    { stage: 'Thi trực tuyến', time: `Từ ${atTime(contest.exam_starts_at)} đến ${atTime(contest.exam_ends_at)}` },
    { stage: 'Công bố kết quả', time: `Ngày ${formatDate(contest.results_at)}` },
    { stage: 'Lễ trao giải', time: `Từ ${formatDate(contest.ceremony_starts_at)} đến ${formatDate(contest.ceremony_ends_at)}` },
  ];
  return (
    <table className="table table-responsive rules-table timeline-table">
      <thead>
        <tr>
          <th scope="col">Giai đoạn</th>
          <th scope="col">Thời gian</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.stage}>
            <th scope="row">{row.stage}</th>
            <td data-label="Thời gian">{row.time}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PrizeTable({ tiers, caption, showTotal }: { tiers: PrizeTier[]; caption: string; showTotal: boolean }) {
  // One prize per tier (schools, teachers): the count and the tier total would only repeat it.
  const single = tiers.every((tier) => tier.count === 1);
  return (
    <table className="table table-responsive rules-table prize-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Giải</th>
          {!single && <th scope="col">Số lượng</th>}
          <th scope="col">{single ? 'Giá trị' : 'Giá trị mỗi giải'}</th>
          {!single && <th scope="col">Thành tiền</th>}
        </tr>
      </thead>
      <tbody>
        {tiers.map((tier) => (
          <tr key={tier.code}>
            <th scope="row">
              {tier.name}
            </th>
            {!single && <td data-label="Số lượng">{tier.count}</td>}
            <td data-label={single ? 'Giá trị' : 'Giá trị mỗi giải'}>{formatMoney(tier.amount)}</td>
            {!single && <td data-label="Thành tiền">{formatMoney(tierTotal(tier))}</td>}
          </tr>
        ))}
      </tbody>
      {showTotal && (
        <tfoot>
          <tr>
            <th scope="row" colSpan={single ? 1 : 3}>
              Tổng cộng
            </th>
            <td>
              <strong>{formatMoney(prizeTotal(tiers))}</strong>
            </td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}

function BooksByGroup() {
  const groups = useBookGroups();
  if (!groups) return <div className="rules-books-placeholder" aria-busy="true" />;
  return (
    <div className="rules-groups">
      {groups.map((group) => (
        <div key={group.id} className="rules-group">
          <h3>
            {group.name}: {group.grades.includes('-') ? `lớp ${group.grades.replace('-', ' và ')}` : `lớp ${group.grades}`}
          </h3>
          <ul>
            {group.books.map((book) => (
              <li key={book.id}>
                <strong>{book.name}</strong>
                {book.author && <span className="muted"> – {book.author}</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

export function RulesPage() {
  usePageTitle('Thể lệ');
  const site = useSite();
  const session = useSession();
  const contest = site?.contest;
  const minutes = Math.round((contest?.exam_duration_seconds ?? DEFAULT_EXAM_DURATION_SECONDS) / 60);
  // The organiser's settings, the spec's numbers until they arrive.
  const questions = contest?.questions_per_exam ?? QUESTIONS_PER_EXAM;
  const attempts = contest?.attempts_per_contestant ?? MAX_ATTEMPTS_PER_CONTESTANT;
  const schoolPupils = prizesOfKind('school_pupils')[0]!;

  return (
    <div className="container page rules-page">
      <header className="rules-head">
        <p className="rules-kicker">{contest?.name ?? '\u00a0'}</p>
        <h1>Thể lệ cuộc thi</h1>
        <p className="rules-lead">
          Cuộc thi dành cho học sinh tiểu học, tổ chức trực tuyến trên trang web này. Tham gia <strong>hoàn toàn miễn phí</strong>.
        </p>
      </header>

      <nav className="rules-toc" aria-label="Mục lục thể lệ">
        <ol>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>

      <section id="muc-dich" className="rules-section">
        <h2>1. {title('muc-dich')}</h2>
        <ul>
          <li>Khơi dậy niềm yêu thích đọc sách và xây dựng thói quen đọc hằng ngày cho học sinh tiểu học.</li>
          <li>Lan toả văn hoá đọc trong nhà trường và gia đình: cha mẹ, thầy cô cùng đọc và trò chuyện về sách với các em.</li>
          <li>Tôn vinh những học sinh, giáo viên và nhà trường tích cực xây dựng phong trào đọc sách.</li>
        </ul>
      </section>

      <section id="doi-tuong" className="rules-section">
        <h2>2. {title('doi-tuong')}</h2>
        <ul>
          <li>
            Học sinh tiểu học từ <strong>lớp 1 đến lớp 5</strong>.
          </li>
          <li>
            Thí sinh tham gia qua tài khoản của cha mẹ hoặc người giám hộ, đăng ký bằng số điện thoại. Mỗi tài khoản đăng ký được tối đa{' '}
            <strong>{MAX_CONTESTANTS_PER_ACCOUNT} thí sinh</strong>.
          </li>
          <li>
            Tham gia <strong>miễn phí</strong>, không thu bất kỳ khoản phí nào.
          </li>
        </ul>
      </section>

      <section id="sach-du-thi" className="rules-section">
        <h2>3. {title('sach-du-thi')}</h2>
        <p>Học sinh được chia thành 3 nhóm theo lớp. Mỗi thí sinh chọn 1 trong 3 cuốn sách của nhóm mình để đọc và làm bài thi.</p>
        <BooksByGroup />
      </section>

      <section id="thoi-gian" className="rules-section">
        <h2>4. {title('thoi-gian')}</h2>
        <Timeline contest={contest} />
      </section>

      <section id="cach-thi" className="rules-section">
        <h2>5. {title('cach-thi')}</h2>
        <ol>
          <li>
            Cha mẹ <Link href="/dang-ky">đăng ký tài khoản</Link> bằng số điện thoại, sau đó khai báo thông tin thí sinh (họ tên, trường, lớp) trong
            trang Tài khoản.
          </li>
          <li>Vào mục “Vào thi”, chọn thí sinh và cuốn sách dự thi.</li>
          <li>
            Mỗi bài thi gồm <strong>{questions} câu hỏi trắc nghiệm</strong> về nội dung cuốn sách và <strong>1 câu hỏi dự đoán</strong>:
            có bao nhiêu bài thi tham gia cuộc thi.
          </li>
          <li>
            Thời gian làm mỗi bài thi là <strong>{minutes} phút</strong>. Bài làm được lưu tự động; khi hết giờ, bài thi được tự động nộp.
          </li>
          <li>
            Mỗi câu trả lời đúng được <strong>{POINTS_PER_CORRECT_ANSWER} điểm</strong>, tối đa <strong>{Math.min(MAX_POINTS, questions * POINTS_PER_CORRECT_ANSWER)} điểm</strong>.
          </li>
          <li>
            Mỗi thí sinh được thi tối đa <strong>{attempts} lần</strong>; <strong>lần thi có kết quả tốt nhất</strong> được tính để
            xếp hạng.
          </li>
          <li>Sau khi nộp bài, thí sinh xem ngay kết quả và tải giấy chứng nhận tham gia trực tuyến.</li>
        </ol>
      </section>

      <section id="xep-hang" className="rules-section">
        <h2>6. {title('xep-hang')}</h2>
        <p>{INDIVIDUAL_RANKING_RULES[0]} Các thí sinh được xếp hạng lần lượt theo các tiêu chí sau:</p>
        <ol className="ranking-list">
          {INDIVIDUAL_RANKING_RULES.slice(1).map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ol>
        <p>{TIE_RULE}</p>
      </section>

      <section id="giai-thuong" className="rules-section">
        <h2>7. {title('giai-thuong')}</h2>

        <h3>7.1. Giải cá nhân</h3>
        <PrizeTable tiers={prizesOfKind('individual')} caption="Giải cá nhân" showTotal />

        <h3>7.2. Giải tập thể trường</h3>
        <p>
          Các trường được xếp hạng theo hai tiêu chí có trọng số ngang nhau (50:50): <strong>số học sinh tham gia dự thi</strong> và{' '}
          <strong>tỉ lệ học sinh tham gia so với tổng số học sinh của trường</strong>.
        </p>
        <details className="rules-details">
          <summary>Cách tính điểm xếp hạng trường</summary>
          <p>{SCHOOL_SCORE_FORMULA}</p>
        </details>
        <PrizeTable tiers={prizesOfKind('school')} caption="Giải tập thể trường" showTotal={false} />
        <p className="rules-note">
          Ngoài giải của trường, {schoolPupils.count} học sinh có kết quả tốt nhất của mỗi trường đạt giải được tặng quà{' '}
          <strong>{formatMoney(schoolPupils.amount)}</strong> mỗi em (<strong>{formatMoney(tierTotal(schoolPupils))}</strong> mỗi trường).
        </p>

        <h3>7.3. Giải “Giáo viên truyền lửa”</h3>
        <p>Dành cho giáo viên chủ nhiệm của những lớp có phong trào đọc sách và tham gia cuộc thi sôi nổi, đạt kết quả tốt nhất.</p>
        <p>{teacherPrizeRule(DEFAULT_CLASS_MIN_PARTICIPANTS)}</p>
        <PrizeTable tiers={prizesOfKind('teacher')} caption="Giải Giáo viên truyền lửa" showTotal />

        <h3>7.4. {winnersMessages.rulesLink}</h3>
        <p>
          Khi kết quả được công bố, <Link href="/danh-sach-doat-giai">{winnersMessages.rulesLink.toLocaleLowerCase('vi')}</Link> theo từng giải có trên trang web. Họ tên học
          sinh chỉ được công bố khi phụ huynh đồng ý (khi đăng ký thí sinh hoặc trong trang tài khoản); nếu không, danh sách ghi lớp và trường của em.
        </p>
      </section>

      <aside className="rules-cta">
        <p>
          Mọi thắc mắc về thể lệ, xin liên hệ Ban tổ chức
          {site && (
            <>
              {' '}
              qua hotline <a href={`tel:${site.hotline.replace(/[^\d+]/g, '')}`}>{site.hotline}</a> hoặc e-mail{' '}
              <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
            </>
          )}
          .
        </p>
        {mayTakeExams(session) && (
          <Link href="/du-thi" className="btn btn-accent">
            Vào thi
          </Link>
        )}
      </aside>
    </div>
  );
}
