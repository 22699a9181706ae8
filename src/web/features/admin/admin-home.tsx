import { Link } from 'wouter';
import { useUnitWords } from '../../lib/site';

/** /quan-tri: the steps of a season (prepare, exam days, close), each a link to its section. */
export function AdminHome() {
  const say = useUnitWords();
  return (
    <section className="admin-page">
      <h1>Quản trị cuộc thi</h1>
      <p>Chuẩn bị một mùa thi theo thứ tự:</p>
      <ol className="admin-steps">
        <li>
          <Link href="/danh-muc">Danh mục</Link>
          {say(': quận/huyện, trường (số học sinh), lớp và giáo viên chủ nhiệm — nhập từ tệp Excel.')}
        </li>
        <li>
          <Link href="/sach">Sách và câu hỏi</Link>: thông tin sách, ảnh bìa và ngân hàng câu hỏi của từng sách.
        </li>
        <li>
          <Link href="/tai-khoan">Tài khoản</Link>: tạo tài khoản quản trị trường, tìm và khoá tài khoản.
        </li>
        <li>
          <Link href="/cuoc-thi">Cài đặt cuộc thi</Link>: thời gian thi, ngày công bố kết quả, giải thưởng, chân trang.
        </li>
        <li>
          <Link href="/tin-tuc">Tin tức</Link>: đăng thông báo lên trang chủ.
        </li>
      </ol>
      <p>Trong thời gian thi:</p>
      <ul className="admin-steps">
        <li>
          <Link href="/theo-doi">Theo dõi kỳ thi</Link>
          {say(': thí sinh đang thi, lượt thi hôm nay theo quận/huyện, trường, khối lớp và theo giờ; tình trạng lưu bài.')}
        </li>
        <li>
          <Link href="/ho-tro">Hỗ trợ thí sinh</Link>: tìm thí sinh gặp sự cố, thêm một lượt thi hoặc gia hạn lượt thi đang làm.
        </li>
        <li>
          Đáp án của một câu hỏi sai? <Link href="/cham-lai">Chấm lại câu hỏi</Link>: chạy thử để xem điểm và giải thay đổi, rồi xác nhận.
        </li>
      </ul>
      <p>Sau giờ thi:</p>
      <ol className="admin-steps">
        <li>
          <Link href="/kiem-tra-ket-qua">Kiểm tra kết quả</Link>: tìm bài làm giống nhau bất thường, làm nhanh bất thường, làm xen kẽ trên một thiết bị; xem
          bằng chứng rồi bỏ qua hoặc tạm giữ giải, luôn ghi lý do.
        </li>
        <li>
          <Link href="/ket-qua">Kết quả và giải thưởng</Link>: tính kết quả, quyết định đồng hạng, công bố, xuất danh sách đoạt giải.
        </li>
        <li>
          <Link href="/giay-chung-nhan">Giấy chứng nhận</Link>: tiến độ vẽ sau khi công bố, tìm và thu hồi giấy chứng nhận.
        </li>
        <li>
          <Link href="/du-lieu-ca-nhan">Dữ liệu cá nhân</Link>: hồ sơ xử lý dữ liệu, thời hạn lưu trữ, thống kê ẩn danh trước khi dữ liệu được xoá.
        </li>
      </ol>
      <p>
        Mọi thay đổi được ghi vào <Link href="/nhat-ky">nhật ký thao tác</Link>.
      </p>
    </section>
  );
}
