// /chinh-sach-bao-mat: the privacy notice (issue 15). The organiser and its contacts come from the
// site settings and every date from the contest (GET /api/site); the version is PRIVACY_NOTICE_VERSION.
import { formatDate } from '../../../shared/format';
import { CHILD_CONSENT_MIN_AGE, DEFAULT_RETENTION_MONTHS, PRIVACY_NOTICE_VERSION, retentionEndsAt } from '../../../shared/privacy';
import { Link } from '../../lib/router';
import { useSite, useUnitLabels } from '../../lib/site';
import { usePageTitle } from '../../lib/use-page-title';
import './privacy.css';

export function PrivacyPage() {
  usePageTitle('Chính sách bảo mật');
  const site = useSite();
  const unit = useUnitLabels();
  const contest = site?.contest;
  const organiser = site?.organiserName ?? 'Ban tổ chức cuộc thi';
  const months = contest?.retention_months ?? DEFAULT_RETENTION_MONTHS;
  return (
    <div className="container page privacy-page">
      <h1>Chính sách bảo mật</h1>
      <p className="muted">
        Phiên bản ngày {formatDate(`${PRIVACY_NOTICE_VERSION}T12:00:00+07:00`)}. Chính sách này áp dụng theo Luật Bảo vệ dữ liệu cá nhân
        và Nghị định 13/2023/NĐ-CP.
      </p>

      <section aria-labelledby="privacy-who">
        <h2 id="privacy-who">1. Ai xử lý dữ liệu của bạn</h2>
        <p>
          Bên kiểm soát và xử lý dữ liệu là <strong>{organiser}</strong>
          {site && (
            <>
              , địa chỉ {site.organiserAddress}, hotline <a href={`tel:${site.hotline.replace(/[^\d+]/g, '')}`}>{site.hotline}</a>, e-mail{' '}
              <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
            </>
          )}
          .
        </p>
      </section>

      <section aria-labelledby="privacy-what">
        <h2 id="privacy-what">2. Dữ liệu nào được lưu và để làm gì</h2>
        <ul>
          <li>
            <strong>Phụ huynh:</strong> số điện thoại (để đăng nhập và nhận mã xác thực qua SMS), mật khẩu (chỉ lưu dạng mã hoá), thời điểm
            đồng ý với chính sách này và lịch sử đăng nhập.
          </li>
          <li>
            <strong>Thí sinh:</strong> họ và tên, {unit.lower}, trường, khối và lớp: để tổ chức cuộc thi, xếp hạng, trao giải, in giấy chứng
            nhận và lập báo cáo cho nhà trường.
          </li>
          <li>
            <strong>Bài thi:</strong> câu hỏi đã nhận, đáp án đã chọn, điểm, thời gian làm bài và dự đoán số bài thi: để chấm điểm và xếp hạng
            theo thể lệ.
          </li>
          <li>
            <strong>Giải thưởng và giấy chứng nhận:</strong> mã giấy chứng nhận, giải đạt được: để trao giải và để mọi người xác minh giấy
            chứng nhận.
          </li>
        </ul>
        <p>Chúng tôi không dùng dữ liệu cho quảng cáo và không bán hay chuyển dữ liệu cho bên nào khác.</p>
      </section>

      <section aria-labelledby="privacy-see">
        <h2 id="privacy-see">3. Ai được xem dữ liệu</h2>
        <ul>
          <li>Phụ huynh xem được toàn bộ dữ liệu của tài khoản mình và các con.</li>
          <li>Quản trị của mỗi trường chỉ xem được họ tên, lớp và kết quả thi của học sinh trường mình.</li>
          <li>Trang xác minh giấy chứng nhận công khai chỉ hiện những gì in trên giấy chứng nhận.</li>
          <li>
            Khi kết quả được công bố, danh sách đoạt giải công khai ghi lớp, trường, {unit.lower} và giải của học sinh đoạt giải; họ tên của con
            chỉ được ghi (trên trang web và trong danh sách đọc khi trao giải) khi phụ huynh đồng ý. Danh sách không có số điện thoại hay mã số nào.
          </li>
          <li>{organiser} xem được dữ liệu để tổ chức cuộc thi và trao giải.</li>
        </ul>
      </section>

      <section aria-labelledby="privacy-how-long">
        <h2 id="privacy-how-long">4. Dữ liệu được lưu trong bao lâu</h2>
        <p>
          Dữ liệu cá nhân được lưu đến {months} tháng sau ngày công bố kết quả
          {contest && (
            <>
              {' '}
              ({formatDate(contest.results_at)}), tức là đến ngày <strong>{formatDate(retentionEndsAt(contest.results_at, months))}</strong>
            </>
          )}
          . Sau đó tên thí sinh được xoá (chỉ giữ điểm số ẩn danh cho thống kê của trường) và tài khoản phụ huynh bị xoá. Nếu bạn tiếp tục tham
          gia mùa thi sau, thời hạn tính từ ngày công bố kết quả của mùa thi đó.
        </p>
        <p>
          Giải thưởng đã trao (họ tên, trường, lớp, tên giải, giá trị) được {organiser} lưu 10 năm như chứng từ kế toán, kể cả khi tài khoản đã
          bị xoá.
        </p>
      </section>

      <section aria-labelledby="privacy-consent">
        <h2 id="privacy-consent">5. Sự đồng ý</h2>
        <p>
          Khi đăng ký, phụ huynh đồng ý với chính sách này cho bản thân và với tư cách người giám hộ hợp pháp của các con. Khi đăng ký thí
          sinh, phụ huynh xác nhận đã giải thích cho con và con đồng ý tham gia (bắt buộc với trẻ từ {CHILD_CONSENT_MIN_AGE} tuổi trở lên).
          Việc công bố họ tên của con trong danh sách đoạt giải là một sự đồng ý riêng, không bắt buộc và mặc định là không: phụ huynh chọn khi
          đăng ký thí sinh và có thể thay đổi bất cứ lúc nào trong trang Tài khoản.
          Khi chính sách thay đổi, chúng tôi sẽ hỏi lại sự đồng ý của bạn ở lần đăng nhập tiếp theo.
        </p>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">6. Quyền của bạn</h2>
        <ul>
          <li>
            Xem và sửa thông tin thí sinh tại trang <Link href="/tai-khoan">Tài khoản</Link> (thông tin của thí sinh đã có bài thi không sửa
            được để giữ đúng kết quả).
          </li>
          <li>Nhận một bản sao dữ liệu: bấm “Tải dữ liệu của tôi” trên trang Tài khoản.</li>
          <li>
            Xoá tài khoản: bấm “Xoá tài khoản” trên trang Tài khoản và nhập mã xác nhận gửi qua SMS. Thí sinh chưa thi bị xoá hẳn; thí sinh
            đã thi được xoá tên, điểm số được giữ ẩn danh để bảng xếp hạng và thống kê của trường không thay đổi; mã giấy chứng nhận đã cấp
            vẫn tra cứu được nhưng không còn tên của con; giải thưởng đã trao được
            {' '}{organiser} lưu theo quy định.
          </li>
          <li>Bạn cũng có thể gọi hotline hoặc gửi e-mail cho {organiser} để yêu cầu bản sao hay xoá dữ liệu.</li>
        </ul>
      </section>
    </div>
  );
}
