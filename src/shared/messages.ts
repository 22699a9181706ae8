// Vietnamese texts of the spec (sections 2, 4, 5, 8), copied exactly, in one place.
// Texts the spec does not give are ours; they are marked "ours".

export const messages = {
  // Validation (section 5)
  phoneInvalid: 'Số điện thoại không hợp lệ.',
  passwordTooShort: 'Mật khẩu phải chứa ít nhất 6 ký tự.',
  fullnameRequired: 'Họ và tên là bắt buộc.',
  districtRequired: 'Huyện là bắt buộc.',
  schoolRequired: 'Trường học là bắt buộc.',
  classGroupRequired: 'Nhóm lớp là bắt buộc.',
  classRequired: 'Lớp là bắt buộc.',
  classOtherTooLong: 'Lớp không được quá 5 ký tự.',
  chooseBook: 'Vui lòng chọn sách thi.',
  chooseContestant: 'Vui lòng chọn thí sinh.',
  predictionInteger: 'Giá trị phải là số nguyên',
  predictionMin: 'Giá trị phải lớn hơn hoặc bằng 0',
  answerAllQuestions: 'Vui lòng hoàn thành tất cả câu hỏi trước khi nộp bài',

  // Error catalogue (section 8)
  logoutFailedTitle: 'Đăng xuất thất bại',
  logoutSuccess: 'Đăng xuất thành công',
  loginFailedTitle: 'Đăng nhập thất bại',
  profileSaveFailedTitle: 'Cập nhật thông tin thất bại',
  checkContestants: 'Vui lòng kiểm tra lại thông tin thí sinh',
  profileSaved: 'Đã hoàn thành đăng ký',
  failedTitle: 'Thất bại',
  changePasswordFailed: 'Đổi mật khẩu thất bại.',
  successTitle: 'Thành công',
  changePasswordSuccess: 'Đổi mật khẩu thành công.',
  pleaseLogin: 'Vui lòng đăng nhập.',
  pleaseLoginForProfile: 'Vui lòng đăng nhập để xem thông tin cá nhân.',
  pleaseRegisterToJoin: 'Vui lòng đăng ký tài khoản để vào thi. Nếu đã có tài khoản thì ấn Đăng nhập nhé!',
  timeUp: 'Hết thời gian làm bài',
  exportSuccess: 'Xuất excel thành công.',

  // Screens (section 2)
  notFoundTitle: 'Trang không tồn tại',
  notFoundText: 'Trang bạn tìm không tồn tại hoặc đã bị xoá.', // ours
  schoolAdminNote: 'Đây là tài khoản admin trường học.',
  noCertificate: 'Chưa có giấy chứng nhận',
  noExamsYet: 'Thí sinh chưa thi nên số lần còn được tham gia thi: 03 lần',
  attemptsLeft: (n: number) => `Số lần còn được tham gia thi: ${n}`,
  noAttemptsLeft: 'Thí sinh đã hết lượt thi',

  // Server-side catalogue (ours: the spec does not show it)
  invalidInput: 'Dữ liệu không hợp lệ.',
  apiNotFound: 'Không tìm thấy đường dẫn API.',
  notFound: 'Không tìm thấy dữ liệu.',
  unauthorized: 'Vui lòng đăng nhập.',
  forbidden: 'Bạn không có quyền thực hiện thao tác này.',
  tooManyRequests: 'Bạn thao tác quá nhanh. Vui lòng thử lại sau ít phút.',
  serverError: 'Đã có lỗi xảy ra. Vui lòng thử lại sau.',
  serviceUnavailable: 'Hệ thống đang bận. Vui lòng thử lại sau.',
  missingParameter: (name: string) => `Thiếu hoặc sai tham số ${name}.`,
} as const;
