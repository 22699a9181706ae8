import { Link } from 'wouter';

/** /quan-tri: the steps of preparing a season, each a link to its section. */
export function AdminHome() {
  return (
    <section className="admin-page">
      <h1>Quản trị cuộc thi</h1>
      <p>Chuẩn bị một mùa thi theo thứ tự:</p>
      <ol className="admin-steps">
        <li>
          <Link href="/danh-muc">Danh mục</Link>: quận/huyện, trường (số học sinh), lớp và giáo viên chủ nhiệm — nhập từ tệp Excel.
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
      <p>
        Sau giờ thi: <Link href="/ket-qua">Kết quả và giải thưởng</Link> — tính kết quả, quyết định đồng hạng, công bố, xuất danh sách đoạt giải.
      </p>
      <p>
        Mọi thay đổi được ghi vào <Link href="/nhat-ky">nhật ký thao tác</Link>.
      </p>
    </section>
  );
}
