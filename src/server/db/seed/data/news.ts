// Demo news: the organiser's posts around the contest. Every date and year in them comes from the
// contest's settings (the seed's contest row), so the posts agree with the rules page and the
// timeline whichever window the seed opens. Images are our own 16:9 illustrations in
// src/web/public/images/news/.
import { formatDate, formatTime } from '../../../../shared/format';
import { contestYear, type ContestDates } from '../../../../shared/schemas/site';
import type { SeedNewsPost } from './types';

const DAY_MS = 86_400_000;
const at = (iso: Date | string) => `${formatTime(iso)} ngày ${formatDate(iso)}`;
const daysAfter = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

export function newsPosts(contest: ContestDates & { name: string }): SeedNewsPost[] {
  const year = contestYear(contest);
  const reading = new Date(contest.reading_starts_at);
  const exam = new Date(contest.exam_starts_at);
  const readingStart = formatDate(contest.reading_starts_at);
  const readingEnd = formatDate(contest.reading_ends_at);
  const examWindow = `từ ${at(contest.exam_starts_at)} đến ${at(contest.exam_ends_at)}`;
  const results = formatDate(contest.results_at);
  const ceremony = `từ ngày ${formatDate(contest.ceremony_starts_at)} đến ngày ${formatDate(contest.ceremony_ends_at)}`;
  return [
  {
    slug: 'phat-dong-cuoc-thi-dai-su-van-hoa-doc',
    name: `Phát động Cuộc thi Đại sứ Văn hoá đọc tỉnh An Hoà năm ${year}`,
    image: '/images/news/phat-dong-cuoc-thi.svg',
    publishedAt: reading,
    bodyHtml: `
<p>Sáng ngày ${readingStart}, tại Trường Tiểu học Lê Lợi, Ban tổ chức đã chính thức phát động <strong>Cuộc thi Đại sứ Văn hoá đọc tỉnh An Hoà năm ${year}</strong> dành cho học sinh tiểu học trên toàn tỉnh. Buổi lễ có sự tham dự của đại diện các nhà trường, thầy cô giáo, phụ huynh và hơn 500 học sinh.</p>
<p>Cuộc thi nhằm khơi dậy niềm yêu thích đọc sách, giúp các em hình thành thói quen đọc mỗi ngày và lan toả văn hoá đọc trong nhà trường cũng như trong từng gia đình.</p>
<h2>Ai được tham gia?</h2>
<ul>
  <li>Học sinh tiểu học từ lớp 1 đến lớp 5, tham gia qua tài khoản của cha mẹ hoặc người giám hộ.</li>
  <li>Mỗi tài khoản đăng ký được tối đa 3 thí sinh.</li>
  <li>Cuộc thi <strong>hoàn toàn miễn phí</strong>.</li>
</ul>
<h2>Các mốc thời gian chính</h2>
<figure>
  <img src="/images/news/phat-dong-cuoc-thi.svg" alt="Học sinh và thầy cô trong buổi lễ phát động cuộc thi" width="640" height="360">
  <figcaption>Lễ phát động ${contest.name}</figcaption>
</figure>
<ul>
  <li>Đọc sách và phát động cuộc thi: từ ${readingStart} đến ${readingEnd}.</li>
  <li>Thi trực tuyến: ${examWindow}.</li>
  <li>Công bố kết quả: ngày ${results}.</li>
  <li>Lễ trao giải: ${ceremony}.</li>
</ul>
<p>Từ nay đến hết ngày ${readingEnd}, các em có thời gian đọc cuốn sách mình yêu thích trong 3 cuốn sách gợi ý của nhóm lớp. Phần thi trực tuyến diễn ra ${examWindow}.</p>
<p>Thông tin chi tiết về cách thi, cách xếp hạng và cơ cấu giải thưởng, phụ huynh vui lòng xem tại trang <a href="/the-le">Thể lệ cuộc thi</a>.</p>
`,
  },
  {
    slug: 'gioi-thieu-9-cuon-sach-goi-y',
    name: 'Giới thiệu 9 cuốn sách gợi ý cho ba nhóm lớp',
    image: '/images/news/gioi-thieu-9-cuon-sach.svg',
    publishedAt: daysAfter(reading, 3),
    bodyHtml: `
<p>Năm nay, Ban tổ chức lựa chọn <strong>9 cuốn sách</strong> phù hợp với lứa tuổi tiểu học, chia thành ba nhóm lớp. Mỗi thí sinh chọn <strong>1 trong 3 cuốn sách</strong> của nhóm mình để đọc và làm bài thi.</p>
<h2>Ba nhóm lớp</h2>
<ul>
  <li><strong>Nhóm 1</strong>: học sinh lớp 1 và lớp 2 – những cuốn sách nhiều tranh, câu chữ ngắn gọn, dễ đọc cùng cha mẹ.</li>
  <li><strong>Nhóm 2</strong>: học sinh lớp 3 và lớp 4 – truyện có cốt truyện dài hơn, nhiều nhân vật và bài học về tình bạn, gia đình.</li>
  <li><strong>Nhóm 3</strong>: học sinh lớp 5 – sách mở rộng hiểu biết về thiên nhiên, lịch sử và con người Việt Nam.</li>
</ul>
<p>Bìa của cả 9 cuốn sách được giới thiệu ngay trên <a href="/">trang chủ</a>; các em có thể chạm vào từng bìa sách để xem ảnh lớn.</p>
<h2>Tìm sách ở đâu?</h2>
<p>Sách có tại thư viện của các trường tiểu học, Thư viện tỉnh An Hoà và hệ thống nhà sách của Nhà xuất bản Giáo dục An Hoà. Các thư viện trường được khuyến khích tổ chức góc đọc riêng cho cuộc thi để học sinh mượn sách thuận tiện.</p>
`,
  },
  {
    slug: 'huong-dan-dang-ky-tai-khoan-va-thi-sinh',
    name: 'Hướng dẫn phụ huynh đăng ký tài khoản và thông tin thí sinh',
    image: '/images/news/huong-dan-dang-ky-du-thi.svg',
    publishedAt: daysAfter(reading, 9),
    bodyHtml: `
<p>Để các em tham gia cuộc thi, cha mẹ hoặc người giám hộ cần có một tài khoản trên trang web của cuộc thi. Việc đăng ký chỉ mất vài phút.</p>
<h2>Bước 1: Tạo tài khoản</h2>
<ul>
  <li>Vào trang <a href="/dang-ky">Đăng ký</a>, nhập số điện thoại di động và mật khẩu (ít nhất 6 ký tự).</li>
  <li>Bấm <strong>Gửi mã OTP</strong>; mã xác thực gồm 6 chữ số được gửi qua tin nhắn và có hiệu lực trong 10 phút.</li>
  <li>Nhập mã OTP rồi bấm <strong>Tạo tài khoản</strong>.</li>
</ul>
<h2>Bước 2: Khai báo thông tin thí sinh</h2>
<p>Trong trang <a href="/tai-khoan">Tài khoản</a>, phụ huynh điền họ và tên, huyện, trường, nhóm lớp và lớp của con. Mỗi tài khoản khai báo được <strong>tối đa 3 thí sinh</strong>, thuận tiện cho gia đình có nhiều con cùng học tiểu học.</p>
<h2>Bước 3: Vào thi khi cuộc thi mở</h2>
<p>Trong thời gian thi, vào mục <a href="/du-thi">Vào thi</a>, chọn thí sinh và cuốn sách dự thi. Phụ huynh nên kiểm tra kỹ họ tên của con, vì họ tên này sẽ in trên giấy chứng nhận.</p>
<p>Nếu quên mật khẩu, phụ huynh dùng chức năng <a href="/quen-mat-khau">Quên mật khẩu</a> để nhận mã OTP và đặt lại mật khẩu.</p>
`,
  },
  {
    slug: 'bi-quyet-giup-con-yeu-sach',
    name: '5 bí quyết giúp con yêu sách: gợi ý cho cha mẹ',
    image: '/images/news/bi-quyet-cung-con-doc-sach.svg',
    publishedAt: daysAfter(reading, 15),
    bodyHtml: `
<p>Thói quen đọc không tự nhiên mà có; nó lớn lên từ những phút giây cha mẹ và con cùng ngồi bên một cuốn sách. Dưới đây là năm gợi ý nhỏ mà các thầy cô thư viện của tỉnh đã chia sẻ với Ban tổ chức.</p>
<h2>1. Mỗi ngày 15 phút</h2>
<p>Chọn một khung giờ cố định, chẳng hạn sau bữa tối hoặc trước khi đi ngủ. Đọc đều đặn mỗi ngày 15 phút có ích hơn đọc dồn hai giờ vào cuối tuần.</p>
<h2>2. Để con chọn sách</h2>
<p>Khi được tự chọn, các em hào hứng hơn nhiều. Cha mẹ có thể gợi ý 2 đến 3 cuốn phù hợp lứa tuổi rồi để con quyết định.</p>
<h2>3. Trò chuyện sau mỗi chương</h2>
<ul>
  <li>“Con thích nhân vật nào nhất? Vì sao?”</li>
  <li>“Nếu là bạn ấy, con sẽ làm gì?”</li>
  <li>“Con đoán chuyện gì sẽ xảy ra tiếp theo?”</li>
</ul>
<h2>4. Làm gương cho con</h2>
<p>Trẻ bắt chước người lớn. Khi thấy cha mẹ đọc sách thay vì xem điện thoại, các em cũng muốn cầm sách lên.</p>
<h2>5. Một góc đọc nhỏ trong nhà</h2>
<p>Một chiếc kệ thấp, đủ ánh sáng và vài chiếc gối là đủ để tạo nên góc đọc mà con yêu thích.</p>
<p>Khi con đã đọc xong cuốn sách dự thi, cha mẹ có thể cùng con ôn lại nội dung trước khi <a href="/du-thi">vào thi</a>. <strong>Chúc các em đọc vui!</strong></p>
`,
  },
  {
    slug: 'ngay-hoi-doc-sach-truong-tieu-hoc-le-loi',
    name: 'Rộn ràng Ngày hội đọc sách tại Trường Tiểu học Lê Lợi',
    image: '/images/news/ngay-hoi-doc-sach-truong-le-loi.svg',
    publishedAt: daysAfter(reading, 21),
    bodyHtml: `
<p>Hưởng ứng ${contest.name}, Trường Tiểu học Lê Lợi (thành phố An Hoà) đã tổ chức <strong>Ngày hội đọc sách</strong> với sự tham gia của hơn 1.200 học sinh và đông đảo phụ huynh.</p>
<p>Sân trường được trang trí cờ hoa rực rỡ. Mỗi khối lớp có một gian sách riêng, nơi các em giới thiệu cuốn sách mình yêu thích bằng tranh vẽ, bằng lời kể và cả những tiểu phẩm ngắn.</p>
<h2>Những hoạt động nổi bật</h2>
<ul>
  <li><strong>Kể chuyện theo sách</strong>: học sinh lớp 1, lớp 2 kể lại câu chuyện trong cuốn sách dự thi cùng bố mẹ.</li>
  <li><strong>Đổi sách lấy sách</strong>: mỗi em mang một cuốn sách cũ để đổi lấy một cuốn sách mới với bạn.</li>
  <li><strong>Góc đọc thầy trò</strong>: thầy cô và học sinh cùng đọc to những trang sách hay nhất.</li>
</ul>
<blockquote>“Ngày hội giúp các con thấy rằng đọc sách không phải là bài tập mà là niềm vui được chia sẻ cùng bạn bè.” – Cô Hiệu trưởng Trường Tiểu học Lê Lợi</blockquote>
<p>Nhà trường cũng hướng dẫn trực tiếp cho phụ huynh cách <a href="/tin-tuc/huong-dan-dang-ky-tai-khoan-va-thi-sinh">đăng ký tài khoản và khai báo thí sinh</a> để sẵn sàng cho phần thi trực tuyến.</p>
`,
  },
  {
    slug: 'tuan-thi-truc-tuyen-nhung-dieu-can-biet',
    name: 'Tuần thi trực tuyến: những điều thí sinh và phụ huynh cần biết',
    image: '/images/news/tuan-thi-truc-tuyen.svg',
    publishedAt: daysAfter(exam, -3),
    bodyHtml: `
<p>Phần thi trực tuyến diễn ra <strong>${examWindow}</strong>. Ban tổ chức xin lưu ý một số điểm để các em làm bài thuận lợi.</p>
<h2>Bài thi gồm những gì?</h2>
<ul>
  <li><strong>20 câu hỏi trắc nghiệm</strong> về nội dung cuốn sách đã chọn, mỗi câu trả lời đúng được 5 điểm (tối đa 100 điểm).</li>
  <li><strong>1 câu hỏi dự đoán</strong>: có bao nhiêu bài thi tham gia cuộc thi. Câu này dùng để phân định thứ hạng khi các bài thi bằng điểm và bằng thời gian.</li>
  <li>Thời gian làm bài là <strong>20 phút</strong>; đồng hồ đếm ngược hiện ở đầu màn hình.</li>
</ul>
<h2>Mẹo nhỏ khi làm bài</h2>
<ul>
  <li>Dùng điện thoại hoặc máy tính có kết nối mạng ổn định; bài làm được lưu tự động trong khi thi.</li>
  <li>Đọc kỹ từng câu hỏi, trả lời đủ 21 câu rồi mới bấm <strong>Nộp bài</strong>.</li>
  <li>Khi hết giờ, bài thi được tự động nộp, các em không cần lo lắng.</li>
</ul>
<p>Mỗi thí sinh được thi <strong>tối đa 3 lần</strong>, lần có kết quả tốt nhất sẽ được tính. Sau khi nộp bài, các em xem ngay điểm số và tải giấy chứng nhận tham gia.</p>
<p>Xem thêm cách xếp hạng tại trang <a href="/the-le">Thể lệ cuộc thi</a>. Chúc các em bình tĩnh và làm bài thật tốt!</p>
`,
  },
  {
    slug: 'thong-bao-le-cong-bo-ket-qua-va-trao-giai',
    name: `Thông báo: công bố kết quả ngày ${results} và lễ trao giải ${ceremony}`,
    image: '/images/news/thong-bao-le-trao-giai.svg',
    publishedAt: daysAfter(exam, -1),
    bodyHtml: `
<p>Ban tổ chức trân trọng thông báo kế hoạch công bố kết quả và trao giải Cuộc thi Đại sứ Văn hoá đọc tỉnh An Hoà năm ${year}.</p>
<h2>Công bố kết quả</h2>
<p>Kết quả chính thức được công bố vào <strong>ngày ${results}</strong> trên trang web của cuộc thi. Phụ huynh đăng nhập tài khoản để xem kết quả và giấy chứng nhận của con; các trường xem báo cáo của trường mình trong mục Báo cáo.</p>
<h2>Lễ trao giải</h2>
<p>Lễ trao giải diễn ra <strong>${ceremony}</strong> tại các cụm trường. Ban tổ chức sẽ liên hệ trực tiếp với phụ huynh của các em đạt giải qua số điện thoại đã đăng ký.</p>
<ul>
  <li>Giải cá nhân: 1 giải Đặc biệt, 1 giải Nhất, 3 giải Nhì, 20 giải Ba và 50 giải Khuyến khích, tổng trị giá 41.000.000 đ.</li>
  <li>Giải tập thể dành cho các trường có phong trào tham gia sôi nổi nhất.</li>
  <li>Giải “Giáo viên truyền lửa” dành cho các thầy cô đã đồng hành cùng học sinh.</li>
</ul>
<p>Chi tiết cơ cấu giải thưởng xem tại trang <a href="/the-le">Thể lệ cuộc thi</a>. Mọi thắc mắc xin liên hệ hotline của Ban tổ chức ở cuối trang.</p>
`,
  },
];
}
