// The document's tags: one per feature, Vietnamese titles (the language of the site and of its
// operators), each with the URL prefixes it covers. A route under no prefix gets no tag and
// docs.api.test.ts fails: add its prefix here (or `tags` to its schema).

export interface TagRule {
  name: string;
  description: string;
  /** A URL belongs to a prefix when it equals it or continues with '/'. */
  prefixes: string[];
}

export const tagRules: TagRule[] = [
  { name: 'Tài khoản', description: 'Đăng ký, mã OTP, đăng nhập, đăng xuất, các phiên đăng nhập, quên và đổi mật khẩu (features/auth).', prefixes: ['/api/send-otp', '/api/register', '/api/login', '/api/logout', '/api/sessions', '/api/forgot-password', '/api/customer/change-password'] },
  { name: 'Hồ sơ', description: 'Hồ sơ phụ huynh và các con dự thi (features/profile).', prefixes: ['/api/profile', '/api/customer/profile'] },
  { name: 'Dữ liệu cá nhân', description: 'Đồng ý với chính sách bảo mật, tải dữ liệu của tôi, xoá tài khoản (features/privacy).', prefixes: ['/api/privacy', '/api/customer/my-data', '/api/customer/my-data.html', '/api/customer/delete-account'] },
  { name: 'Danh mục', description: 'Quận/huyện, trường, khối lớp, lớp và sách (features/catalog).', prefixes: ['/api/districts', '/api/schools', '/api/class-groups', '/api/class-rooms', '/api/books'] },
  { name: 'Bài thi', description: 'Sách của thí sinh, bắt đầu, lưu, nộp bài và xem kết quả (features/exams).', prefixes: ['/api/children', '/api/start-exam', '/api/examing', '/api/store-answers-exam', '/api/submit-exam', '/api/exam-result'] },
  { name: 'Thi thử', description: 'Bài thi thử của thí sinh: bắt đầu, lưu, nộp và xem đáp án; không tính lượt thi (features/practice).', prefixes: ['/api/practice'] },
  { name: 'Chứng nhận', description: 'Giấy chứng nhận và tra cứu mã chứng nhận (features/certificates).', prefixes: ['/api/certificates', '/api/chilren-certificate'] },
  { name: 'Báo cáo', description: 'Báo cáo của trường cho quản trị trường; kết quả các con theo mùa thi cho phụ huynh (features/reports).', prefixes: ['/api/report-school', '/api/report-parent'] },
  { name: 'Số liệu của Sở, Phòng', description: 'Tài khoản xem số liệu (Sở Giáo dục toàn tỉnh, hoặc một số đơn vị): phạm vi xem, số liệu tham gia, kết quả đã công bố, xuất .xlsx; chỉ đọc (features/viewers).', prefixes: ['/api/viewer'] },
  { name: 'Danh sách đoạt giải', description: 'Danh sách đoạt giải đã công bố, theo từng giải, tìm theo trường (features/winners).', prefixes: ['/api/winners'] },
  { name: 'Từ chối nhận tin', description: 'Gia đình từ chối nhận tin nhắn của ban tổ chức qua đường dẫn trong tin (features/admin/messages).', prefixes: ['/api/opt-out'] },
  { name: 'Tin tức', description: 'Tin tức đã đăng (features/news).', prefixes: ['/api/blogs', '/api/blog'] },
  { name: 'Thông tin trang', description: 'Chân trang và các mốc thời gian của cuộc thi (features/site).', prefixes: ['/api/site'] },
  { name: 'Tệp', description: 'Ảnh và âm thanh đã tải lên, phục vụ với bộ nhớ đệm dài (features/media).', prefixes: ['/api/media'] },
  { name: 'Quản trị: danh mục', description: 'Ban tổ chức: quận/huyện, trường, khối lớp, lớp, giáo viên; nhập từ .xlsx.', prefixes: ['/api/admin/districts', '/api/admin/schools', '/api/admin/class-groups', '/api/admin/class-rooms', '/api/admin/classes', '/api/admin/class-teachers', '/api/admin/teachers', '/api/admin/catalog'] },
  { name: 'Quản trị: sách và câu hỏi', description: 'Ban tổ chức: sách, ảnh bìa, ngân hàng câu hỏi; nhập .xlsx, .csv, Aiken, GIFT.', prefixes: ['/api/admin/books', '/api/admin/questions', '/api/admin/answers'] },
  { name: 'Quản trị: tài khoản', description: 'Ban tổ chức: tìm tài khoản, tạo quản trị trường và tài khoản xem số liệu, liên kết đặt mật khẩu, khoá/mở khoá.', prefixes: ['/api/admin/accounts', '/api/admin/users', '/api/admin/school-admins', '/api/admin/viewers'] },
  { name: 'Quản trị: cuộc thi', description: 'Ban tổ chức: thời gian thi, số câu, lượt thi, giải thưởng, chân trang.', prefixes: ['/api/admin/contest', '/api/admin/settings', '/api/admin/site-settings', '/api/admin/site'] },
  { name: 'Quản trị: tin tức', description: 'Ban tổ chức: viết, sửa, đăng, gỡ, xoá tin; ảnh minh hoạ.', prefixes: ['/api/admin/news', '/api/admin/media', '/api/admin/uploads'] },
  { name: 'Quản trị: mẫu và nhật ký', description: 'Ban tổ chức: tệp mẫu để nhập, nhật ký thao tác (chỉ đọc).', prefixes: ['/api/admin/templates', '/api/admin/audit'] },
  { name: 'Quản trị: dữ liệu cá nhân', description: 'Ban tổ chức: hồ sơ xử lý dữ liệu cá nhân, thời hạn lưu trữ, thống kê ẩn danh, sao chép và xoá dữ liệu theo yêu cầu.', prefixes: ['/api/admin/privacy'] },
  { name: 'Quản trị: chấm lại', description: 'Ban tổ chức: chấm lại một câu hỏi khi đáp án sai (chạy thử, xác nhận, lịch sử).', prefixes: ['/api/admin/regrades'] },
  { name: 'Quản trị: giấy chứng nhận', description: 'Ban tổ chức: tiến độ vẽ giấy chứng nhận, tìm và thu hồi giấy chứng nhận.', prefixes: ['/api/admin/certificates'] },
  { name: 'Quản trị: ngày thi', description: 'Ban tổ chức: theo dõi kỳ thi trực tiếp, hỗ trợ thí sinh (thêm lượt thi, gia hạn lượt thi).', prefixes: ['/api/admin/exam-days'] },
  { name: 'Quản trị: kết quả', description: 'Ban tổ chức: tính kết quả (chạy nền, tiến độ), đồng hạng, xem và công bố giải, xuất .xlsx.', prefixes: ['/api/admin/results'] },
  // Any other back-office path (an area's new resource) still lands with the back office.
  { name: 'Quản trị', description: 'Các thao tác khác của ban tổ chức (/api/admin).', prefixes: ['/api/admin'] },
  { name: 'Tình trạng', description: 'Kiểm tra tiến trình (/healthz) và cơ sở dữ liệu (/readyz) cho bộ cân bằng tải.', prefixes: ['/healthz', '/readyz', '/api/healthz', '/api/readyz'] },
  { name: 'Tài liệu API', description: 'Tài liệu này: bản OpenAPI (JSON) và trang đọc.', prefixes: ['/api/docs'] },
];

/** The tag of a URL: the first rule with a matching prefix (so specific rules come first). */
export function tagsOf(url: string): string[] {
  const rule = tagRules.find(({ prefixes }) => prefixes.some((prefix) => url === prefix || url.startsWith(prefix + '/')));
  return rule ? [rule.name] : [];
}
