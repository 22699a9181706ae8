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
  // A family screen opened by a school administrator or the organiser (ours)
  organiserNote: 'Đây là tài khoản ban tổ chức.',
  /** A screen of another role opened by a viewer of the education offices (issue 41, ours). */
  viewerNote: 'Đây là tài khoản xem số liệu của cơ quan quản lý giáo dục.',
  wrongRoleTitle: 'Trang này không dành cho tài khoản của bạn',
  familyOnly: 'Vào thi, bài thi và giấy chứng nhận của thí sinh chỉ dành cho tài khoản phụ huynh.',
  reportNotForRole: 'Báo cáo dành cho tài khoản phụ huynh và tài khoản admin trường học.',
  /** /so-giao-duc opened by another role (issue 41, ours). */
  viewerAreaOnly: 'Trang số liệu dành cho tài khoản xem số liệu của Sở Giáo dục và Đào tạo và các đơn vị.',
  /** /tai-khoan opened by a viewer, who has no family (issue 41, ours). */
  accountPageNotForViewers: 'Trang tài khoản dành cho phụ huynh, nhà trường và ban tổ chức. Số liệu của bạn ở trang Số liệu; mật khẩu đổi ở trang Đổi mật khẩu.',
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
  /** No contest in the database yet (the back office creates one): every route that needs one (ours). */
  noContest: 'Chưa có cuộc thi nào.',
  payloadTooLarge: 'Dữ liệu gửi lên quá lớn.',
  unsupportedMediaType: 'Định dạng dữ liệu gửi lên không được hỗ trợ.',
  controlCharacter: 'Có ký tự không hợp lệ (ký tự điều khiển).',
  missingParameter: (name: string) => `Thiếu hoặc sai tham số ${name}.`,
  /** An upload whose declared size is over its route's limit (413, before it is read). */
  uploadTooLarge: (mb: number) => `Tệp quá lớn: tối đa ${mb} MB.`,
  /** A body that says it is a multipart form and is not one (no boundary, cut short). */
  malformedUpload: 'Dữ liệu tệp gửi lên không đọc được (biểu mẫu không đúng định dạng hoặc bị cắt ngang). Vui lòng gửi lại.',
  /** A request whose body did not arrive within REQUEST_BODY_TIMEOUT_MS (408). */
  requestBodyTimeout: 'Dữ liệu gửi lên quá chậm. Vui lòng kiểm tra kết nối mạng rồi gửi lại.',
  /** The client's connection closed under its request (499: nobody reads it; said for the log). */
  clientGone: 'Kết nối đã đóng trước khi gửi xong yêu cầu.',
  /** A conditional download of a file that has changed since (412). */
  preconditionFailed: 'Tệp đã thay đổi. Vui lòng tải lại trang.',
  /** A download of a part outside the file (416). */
  rangeNotSatisfiable: 'Phần dữ liệu yêu cầu nằm ngoài tệp.',
  clientGoneBeforeUpload: 'Kết nối đã đóng trước khi gửi xong tệp.',
  clientGoneBeforeRead: 'Kết nối đã đóng trước khi đọc xong tệp.',
} as const;

// accounts (ours: register, login, one-time codes, passwords, profile) ----------------------
export const accountMessages = {
  phoneTaken: 'Số điện thoại đã được đăng ký. Vui lòng đăng nhập.',
  phoneNotRegistered: 'Số điện thoại chưa được đăng ký tài khoản.',
  phoneReadOnly: 'Không thể thay đổi số điện thoại của tài khoản.',
  passwordRequired: 'Vui lòng nhập mật khẩu.',
  passwordTooLong: 'Mật khẩu không được quá 100 ký tự.',
  otpFormat: 'Mã OTP gồm 6 chữ số.',
  otpSent: 'Mã OTP đã được gửi tới số điện thoại của bạn, có hiệu lực trong 10 phút.',
  otpMissing: 'Mã OTP không còn hiệu lực. Vui lòng bấm Gửi OTP để lấy mã mới.',
  otpExpired: 'Mã OTP đã hết hạn. Vui lòng lấy mã mới.',
  otpUsed: 'Mã OTP đã được sử dụng. Vui lòng lấy mã mới.',
  otpWrong: (triesLeft: number) =>
    triesLeft > 0 ? `Mã OTP không đúng. Bạn còn ${triesLeft} lần thử.` : 'Mã OTP không đúng. Vui lòng lấy mã mới.',
  otpTooManyTries: 'Mã OTP đã bị huỷ do nhập sai quá 5 lần. Vui lòng lấy mã mới.',
  otpCooldown: (seconds: number) => `Vui lòng đợi ${seconds} giây trước khi lấy mã OTP mới.`,
  otpRecentlySent: 'Mã OTP vừa được gửi tới số điện thoại này, có hiệu lực trong 10 phút. Bạn có thể lấy mã mới khi hết thời gian chờ.',
  otpDailyCapPhone: 'Số điện thoại này đã nhận quá số mã OTP cho phép trong ngày. Vui lòng thử lại sau.',
  otpDailyCapIp: 'Bạn đã yêu cầu quá nhiều mã OTP trong ngày. Vui lòng thử lại sau.',
  smsFailed: 'Không gửi được tin nhắn chứa mã OTP. Vui lòng thử lại sau ít phút.',
  registerSuccess: 'Đăng ký tài khoản thành công.',
  loginSuccess: 'Đăng nhập thành công.',
  loginWrong: 'Số điện thoại hoặc mật khẩu không đúng.',
  /** 503: the password hashing queue is full (a login storm, decision 031). */
  passwordHashingBusy: 'Hệ thống đang có quá nhiều người đăng nhập cùng lúc. Vui lòng thử lại sau vài giây.',
  loginTooManyForPhone: (minutes: number) => `Tài khoản này đã đăng nhập sai quá nhiều lần. Vui lòng thử lại sau ${minutes} phút.`,
  loginTooManyForIp: (minutes: number) => `Có quá nhiều lần đăng nhập sai từ mạng của bạn. Vui lòng thử lại sau ${minutes} phút.`,
  alreadyLoggedIn: 'Bạn đã đăng nhập.',
  sessionNotFound: 'Không tìm thấy phiên đăng nhập này (có thể đã kết thúc).',
  sessionEnded: 'Đã kết thúc phiên đăng nhập.',
  forgotPasswordSuccess: 'Xác thực thành công. Vui lòng đặt mật khẩu mới.',
  resetLinkInvalid: 'Liên kết đổi mật khẩu không hợp lệ, đã được sử dụng hoặc đã hết hạn.',
  fullnameTooLong: 'Họ và tên không được quá 100 ký tự.',
  tooManyContestants: 'Mỗi tài khoản chỉ được đăng ký tối đa 3 thí sinh.',
  districtUnknown: 'Huyện không tồn tại.',
  classGroupUnknown: 'Nhóm lớp không tồn tại.',
  schoolNotInDistrict: 'Trường học không thuộc huyện đã chọn.',
  classRoomNotInGroup: 'Lớp không thuộc nhóm lớp đã chọn.',
  contestantNotYours: 'Thí sinh không thuộc tài khoản của bạn.',
  contestantDuplicated: 'Một thí sinh xuất hiện hai lần trong danh sách.',
  contestantLocked: 'Thí sinh đã dự thi nên không thể thay đổi thông tin.',
  cannotDeleteFirstContestant: 'Không thể xoá thí sinh thứ nhất.',
  deleteContestantTitle: (n: number) => `Xoá thí sinh ${n}?`,
  deleteContestantText: (fullname: string) =>
    `${fullname ? `Thông tin của thí sinh ${fullname}` : 'Thông tin của thí sinh này'} sẽ bị xoá khỏi danh sách. Bấm Hoàn thành để lưu thay đổi.`,
  cannotDeleteContestantWithExams: 'Không thể xoá thí sinh đã dự thi.',
  noContestantsForRole: 'Tài khoản này không đăng ký thí sinh dự thi.',
  profileChangedElsewhere: 'Thông tin thí sinh vừa được thay đổi ở nơi khác. Vui lòng tải lại trang.',
} as const;

// exams (ours: joining, taking and reviewing an exam) ---------------------------------------
export const examMessages = {
  /** The result review while the season holds the correct answers back (issue 40). */
  correctAnswersLater: (at: string) =>
    `Đáp án đúng của từng câu sẽ được hiển thị sau khi đóng thi, từ ${at}. Dưới đây là điểm và các câu em đã chọn.`,
  schoolAdminCannotJoin: 'Tài khoản admin trường học không thể vào thi.',
  contestantNotFound: 'Không tìm thấy thí sinh.',
  examNotFound: 'Không tìm thấy bài thi.',
  /** Read-aloud (issue 24): why the speaker buttons are missing, and where a parent adds a Vietnamese voice. */
  noVietnameseVoice:
    'Máy này chưa có giọng đọc tiếng Việt nên khi thi, nút loa chỉ có ở câu hỏi có ghi âm. Để máy đọc được mọi câu hỏi, bố mẹ cài giọng tiếng Việt trong Cài đặt của máy, mục Chuyển văn bản thành giọng nói.',
  voiceFailed:
    'Máy chưa đọc được bằng giọng tiếng Việt nên nút loa tạm ẩn (câu có ghi âm vẫn nghe được). Bố mẹ có thể cài giọng tiếng Việt trong Cài đặt của máy, mục Chuyển văn bản thành giọng nói.',
  /** Asked before a start uses an attempt (issue 24): one tap must not spend it. */
  confirmStartTitle: (attempt: number, allowed: number) => `Bắt đầu lượt thi thứ ${attempt} trong ${allowed} lượt?`,
  confirmStartText: (minutes: number) => `Thời gian ${minutes} phút tính từ lúc bắt đầu.`,
  bookNotInGroup: 'Sách thi không thuộc nhóm lớp của thí sinh. Vui lòng chọn sách khác.',
  bookHasNoQuestions: 'Sách thi này chưa có câu hỏi. Vui lòng chọn sách khác.',
  bookShortOfQuestions: 'Sách thi này chưa đủ câu hỏi để ra đề. Vui lòng chọn sách khác.',
  windowNotOpen: (opensAt: string) => `Chưa đến thời gian thi. Cuộc thi bắt đầu lúc ${opensAt}.`,
  windowClosed: 'Đã hết thời gian thi của cuộc thi.',
  examInProgress: 'Thí sinh đang có một bài thi chưa hoàn thành. Hãy tiếp tục bài thi đó nhé!',
  examStarted: 'Bắt đầu làm bài. Chúc em làm bài thật tốt!',
  startRetry: 'Hệ thống đang bận. Vui lòng bấm Vào thi lại.',
  alreadySubmitted: 'Bài thi đã được nộp.',
  submitSuccess: 'Nộp bài thành công!',
  saveTooLate: 'Đã hết thời gian làm bài nên câu trả lời này không được ghi nhận.',
  answerNotInExam: 'Câu hỏi không thuộc đề thi này.',
  answerNotOfQuestion: 'Đáp án không thuộc câu hỏi này.',
  duplicateQuestion: 'Mỗi câu hỏi chỉ được chọn một đáp án.',
  openElsewhere: 'Bài thi đang được mở trên một thiết bị hoặc thẻ khác. Bài làm trên màn hình này chưa được lưu.',
  resultNotReady: 'Bài thi chưa được nộp nên chưa có kết quả.',
  predictionTooLarge: 'Giá trị quá lớn',
  saved: 'Đã lưu bài làm',
  saving: 'Đang lưu…',
  notSaved: 'Chưa lưu – sẽ tự lưu khi có mạng',
  continueExam: (seconds: number) => `Đang chuyển đến bài thi sau ${seconds} giây…`,
  noContestants: 'Tài khoản chưa có thí sinh dự thi. Vui lòng đăng ký thí sinh trước khi vào thi.',
  registerContestant: 'Đăng ký thí sinh',
  confirmSubmitTitle: 'Nộp bài thi?',
  confirmSubmitText: 'Em đã kiểm tra lại bài làm chưa? Sau khi nộp sẽ không sửa được nữa.',
  submitFailedTitle: 'Nộp bài chưa thành công',
  autoSubmitting: 'Đang nộp bài…',
  loadFailed: 'Không tải được bài thi. Vui lòng kiểm tra kết nối mạng.',
  practiceNote: 'Bài thi thử: không tính vào số lượt thi, không xếp hạng. Em làm quen với cách thi trước khi thi thật nhé!',
  unansweredTitle: (count: number) => `Em còn ${count} câu chưa trả lời`,
} as const;

// results (ours: reports, results computation, certificates) ---------------------------------
export const resultMessages = {
  resultsTooEarly: (endsAt: string) => `Chưa hết thời gian thi (kết thúc lúc ${endsAt}). Chỉ tính kết quả sau thời điểm này.`,
  examsStillInProgress: (count: number) => `Còn ${count} bài thi chưa kết thúc. Hãy tính kết quả khi mọi bài thi đã nộp.`,
  notComputed: 'Chưa tính kết quả. Hãy tính kết quả trước khi công bố.',
  publishTooEarly: (resultsAt: string) => `Chưa đến ngày công bố kết quả (${resultsAt}). Chỉ công bố từ thời điểm này.`,
  notFinal: 'Kết quả này được tính trước khi hết thời gian thi nên chưa chính thức. Hãy tính lại rồi công bố.',
  /**
   * The results date as schools and families read it: before publication "… sẽ được công bố ngày
   * 02/12/2026." (nothing is computed yet), after it "… đã được công bố." (the organiser may publish
   * later than the date set, so the past form names no date).
   */
  announcement: (published: boolean, date: string, subject = 'Kết quả và giải thưởng') =>
    published ? `${subject} đã được công bố.` : `${subject} sẽ được công bố ngày ${date}.`,
  schoolAdminOnly: 'Chỉ tài khoản admin trường học mới xem được báo cáo của trường.',
  parentOnly: 'Chỉ tài khoản phụ huynh mới xem được giấy chứng nhận của thí sinh.',
  childNotFound: 'Không tìm thấy thí sinh.',
  certificateNotFound: 'Không tìm thấy giấy chứng nhận.',
  verifyNotFound: 'Không tìm thấy giấy chứng nhận với mã này. Vui lòng kiểm tra lại mã.',
  loadFailed: 'Không tải được dữ liệu. Vui lòng thử lại.',
  downloadFailed: 'Không tải được giấy chứng nhận. Vui lòng thử lại.',
  exportFailed: 'Xuất excel thất bại. Vui lòng thử lại.',
} as const;

// privacy (issue 15: consent, the parent's copy of the data, deletion of the account) -----------
export const privacyMessages = {
  consentRequired: 'Vui lòng đồng ý với Chính sách bảo mật để tiếp tục.',
  consentLabel:
    'Tôi đã đọc và đồng ý với Chính sách bảo mật, cho bản thân tôi và với tư cách người giám hộ hợp pháp của các con tôi đăng ký dự thi.',
  childConsentRequired: 'Vui lòng xác nhận con đã đồng ý tham gia.',
  // Asked for every child: the law (Decree 13/2023, art. 20) needs the child's own agreement from 7, and a pupil's age is not known, so the rule and the label ask it of all.
  childConsentLabel: 'Tôi đã giải thích cho con và con đồng ý tham gia cuộc thi.',
  newNoticeTitle: 'Chính sách bảo mật đã được cập nhật',
  newNoticeText: 'Vui lòng đọc và đồng ý với Chính sách bảo mật mới để tiếp tục sử dụng tài khoản.',
  consentSaved: 'Đã ghi nhận sự đồng ý của bạn.',
  familyOnly: 'Chức năng này chỉ dành cho tài khoản phụ huynh.',
  deleteOtpSent: 'Mã xác nhận xoá tài khoản đã được gửi đến số điện thoại của bạn.',
  accountDeleted: 'Tài khoản của bạn đã được xoá.',
  downloadFailed: 'Không tải được dữ liệu. Vui lòng thử lại.',
} as const;

// practice round ("Thi thử", issue 14) -------------------------------------------------------------
export const practiceMessages = {
  offerTitle: 'Thi thử',
  /** Why a child should try it: shown beside the real start on /du-thi. */
  offerLine: 'Làm quen với cách thi trước khi thi thật',
  offerDetails: 'Thi thử không tính vào số lượt thi, không xếp hạng và làm bao nhiêu lần cũng được.',
  notAvailable: 'Chưa có bài thi thử cho nhóm lớp của thí sinh này.',
  closed: 'Cuộc thi đã kết thúc nên không còn thi thử.',
  started: 'Bắt đầu thi thử. Chúc em làm bài vui vẻ!',
  submitted: 'Đã nộp bài thi thử. Cùng xem em đúng những câu nào nhé!',
  alreadySubmitted: 'Bài thi thử này đã nộp.',
  notFound: 'Không tìm thấy bài thi thử.',
  resultNotReady: 'Bài thi thử chưa nộp nên chưa có kết quả.',
  tooMany: (count: number) => `Hôm nay thí sinh đã thi thử ${count} lần. Hãy nghỉ ngơi và quay lại vào ngày mai nhé!`,
  /** The round's title on the exam screen, after the "Thi thử" badge. */
  bookName: (groupName: string, grades: string) => `Các sách của ${groupName} (lớp ${grades})`,
  fewerQuestions: (count: number) => `Bài thi thử này có ${count} câu hỏi và câu dự đoán.`,
  resultTitle: 'Kết quả thi thử',
  resultNote: 'Đây là bài thi thử: không tính vào số lượt thi, không có trong bảng xếp hạng.',
  score: (correct: number, total: number) => `Em trả lời đúng ${correct}/${total} câu`,
  allRight: 'Giỏi quá! Em đã sẵn sàng cho bài thi thật.',
  encourage: 'Cùng xem lại đáp án đúng ở bên dưới nhé!',
  loading: 'Đang tải bài thi thử…',
  loadingResult: 'Đang tải kết quả thi thử…',
  again: 'Thi thử lần nữa',
  realExam: 'Vào thi thật',
  start: 'Thi thử',
  resume: 'Tiếp tục thi thử',
  loadStatusFailed: 'Không tải được thông tin thi thử. Vui lòng thử lại.',
} as const;

// strangers' input (issue 21: nesting, file names, audio clips, the current password) ---------
export const inputMessages = {
  tooDeep: 'Dữ liệu gửi lên lồng nhau quá sâu.',
  notAudio: 'Tệp không phải âm thanh MP3, M4A, OGG, WebM hoặc WAV đọc được.',
  currentPasswordRequired: 'Vui lòng nhập mật khẩu hiện tại.',
  currentPasswordWrong: 'Mật khẩu hiện tại không đúng.',
} as const;

// Validation (issue 35): what a schema answers when it has no message of its own, always naming
// the field (its path in the body, the query or the path: "prize_tiers.0.amount"). Used by the one
// Zod error map (shared/schemas/validation-errors.ts), so that no library default (in English)
// reaches a user.
export const validationMessages = {
  /** The body, query or path as a whole (an issue without a field). */
  wholeInput: 'Dữ liệu gửi lên',
  required: (field: string) => `${field}: chưa có giá trị (bắt buộc).`,
  wrongType: (field: string, expected: string) => `${field}: phải là ${expected}.`,
  types: {
    string: 'một chuỗi ký tự',
    number: 'một số',
    int: 'một số nguyên',
    boolean: 'true hoặc false',
    array: 'một danh sách',
    object: 'một đối tượng JSON',
    null: 'null',
    date: 'một ngày',
    other: 'một giá trị hợp lệ',
  } as Record<string, string>,
  tooShort: (field: string, min: string | number) => `${field}: phải có ít nhất ${min} ký tự.`,
  tooLong: (field: string, max: string | number) => `${field}: chỉ được có tối đa ${max} ký tự.`,
  tooFewItems: (field: string, min: string | number) => `${field}: phải có ít nhất ${min} phần tử.`,
  tooManyItems: (field: string, max: string | number) => `${field}: chỉ được có tối đa ${max} phần tử.`,
  atLeast: (field: string, min: string | number) => `${field}: phải lớn hơn hoặc bằng ${min}.`,
  above: (field: string, min: string | number) => `${field}: phải lớn hơn ${min}.`,
  atMost: (field: string, max: string | number) => `${field}: phải nhỏ hơn hoặc bằng ${max}.`,
  below: (field: string, max: string | number) => `${field}: phải nhỏ hơn ${max}.`,
  badFormat: (field: string) => `${field}: không đúng định dạng.`,
  oneOf: (field: string, values: string) => `${field}: phải là một trong các giá trị ${values}.`,
  multipleOf: (field: string, divisor: string | number) => `${field}: phải là bội số của ${divisor}.`,
  unknownField: (fields: string) => `Không nhận trường dữ liệu ${fields} (không có trong yêu cầu này).`,
  invalid: (field: string) => `${field}: không hợp lệ.`,
} as const;

// The back office's: the messages of its forms and imports are in ./admin.ts.
// regrading (issue 13: a wrong answer key, corrected with a dry run) ----------------------------
export const regradeMessages = {
  modeRequired: 'Vui lòng chọn cách chấm lại.',
  answerRequired: 'Vui lòng chọn đáp án.',
  answerNotOfQuestion: 'Đáp án này không thuộc câu hỏi.',
  answerIsKey: 'Đáp án này đang là đáp án đúng: hãy chọn một đáp án khác.',
  sameRule: 'Câu hỏi đang được chấm đúng theo cách này: không có gì thay đổi.',
  reasonRequired: 'Vui lòng nhập lý do chấm lại.',
  reasonTooLong: 'Lý do tối đa 1000 ký tự.',
  questionNotFound: 'Không tìm thấy câu hỏi.',
  questionNotUsed: 'Chưa có bài thi nào của cuộc thi này có câu hỏi này nên không cần chấm lại. Hãy sửa câu hỏi trong ngân hàng.',
  modeLabels: {
    new_key: 'Đổi đáp án đúng',
    accept_both: 'Chấp nhận cả hai đáp án',
    everyone: 'Cho mọi thí sinh điểm câu này',
  },
  resultNote: {
    new_key: 'Câu hỏi đã được chấm lại: đáp án đúng đã được sửa.',
    accept_both: 'Câu hỏi đã được chấm lại: cả hai đáp án đều được tính đúng.',
    everyone: 'Câu hỏi đã được chấm lại: mọi thí sinh đều được tính điểm câu này.',
  },
} as const;

// certificates in the back office (issue 13: background rendering, revocation) -----------------
export const certificateAdminMessages = {
  revokedPublic: 'Giấy chứng nhận này đã bị Ban tổ chức thu hồi và không còn giá trị.',
  erasedPublic: 'Giấy chứng nhận này do Ban tổ chức cấp. Thông tin của người nhận đã được xoá theo yêu cầu của gia đình.',
  revokedDownload: 'Giấy chứng nhận này đã bị Ban tổ chức thu hồi nên không tải được nữa. Vui lòng liên hệ Ban tổ chức nếu cần.',
  alreadyRevoked: 'Giấy chứng nhận này đã bị thu hồi trước đó.',
  notFound: 'Không tìm thấy giấy chứng nhận với mã này.',
  reasonRequired: 'Vui lòng nhập lý do thu hồi.',
  reasonTooLong: 'Lý do thu hồi tối đa 500 ký tự.',
  queryRequired: 'Nhập mã chứng nhận hoặc tên người nhận.',
  revoked: 'Đã thu hồi giấy chứng nhận. Người nhận vẫn giữ giải và được cấp giấy mới với mã mới.',
} as const;

// exam days in the back office (issue 13: live dashboard, incidents, questions frozen) --------
export const examDaysMessages = {
  reasonRequired: 'Vui lòng nhập lý do (được ghi vào nhật ký).',
  reasonLength: 'Lý do dài từ 3 đến 500 ký tự.',
  minutesTooFew: 'Số phút gia hạn ít nhất là 1.',
  minutesTooMany: (left: number) =>
    left > 0 ? `Mỗi lượt thi được gia hạn tổng cộng tối đa 20 phút: còn gia hạn được ${left} phút.` : 'Lượt thi này đã được gia hạn đủ 20 phút.',
  extraAttemptGiven: 'Thí sinh này đã được thêm một lượt thi. Mỗi thí sinh chỉ được thêm một lượt.',
  examFinished: 'Lượt thi này đã kết thúc nên không gia hạn được. Có thể thêm một lượt thi cho thí sinh.',
  contestantNotFound: 'Không tìm thấy thí sinh.',
  examNotFound: 'Không tìm thấy lượt thi.',
  searchTooShort: 'Nhập ít nhất 3 chữ số của số điện thoại phụ huynh hoặc 2 chữ của tên thí sinh.',
  extraAttemptDone: 'Đã thêm một lượt thi cho thí sinh.',
  extraAttemptWithdrawn: 'Đã rút lượt thi thêm của thí sinh.',
  extraAttemptNone: 'Thí sinh này không có lượt thi thêm.',
  extraAttemptUsed: 'Thí sinh đã bắt đầu lượt thi thêm nên không rút được nữa.',
  extensionDone: (minutes: number) => `Đã gia hạn lượt thi thêm ${minutes} phút.`,
  questionsFrozen:
    'Đang trong thời gian thi: không sửa hay xoá câu hỏi của sách đã có bài thi, để bài thi đang làm không bị thay đổi. Để sửa đáp án sai, hãy dùng chức năng Chấm lại.',
} as const;

// results from the back office (issue 13: compute, ties, review, publish, exports) -------------
export const adminResultsMessages = {
  computing: 'Đang tính kết quả. Hãy chờ lần tính này xong rồi tính lại.',
  taskDied: 'Tiến trình tính kết quả đã dừng giữa chừng (máy chủ khởi động lại hoặc gặp sự cố). Hãy tính lại.',
  taskFailed: 'Tính kết quả thất bại. Hãy thử lại; nếu vẫn lỗi, báo cho bộ phận kỹ thuật.',
  tieUndecided: (count: number) =>
    `Còn ${count} nhóm đồng hạng vượt số giải chưa được Ban tổ chức quyết định (hoặc quyết định chưa được áp dụng: hãy tính lại kết quả).`,
  tieNotFound: 'Không tìm thấy nhóm đồng hạng này trong kết quả vừa tính. Hãy tải lại trang.',
  orderMustListMembers: 'Thứ tự phải gồm đúng các thành viên của nhóm đồng hạng, mỗi người một lần.',
  reasonRequired: 'Vui lòng nhập lý do (ít nhất 3 ký tự).',
  published: 'Phụ huynh và nhà trường đã xem được giải thưởng.',
  decisionSaved: 'Hãy tính lại kết quả để áp dụng quyết định.',
  noPrizeToWithdraw: 'Thí sinh này không có giải này trong kết quả đã tính (có thể đã được rút trước đó).',
  notComputed: 'Chưa có kết quả: hãy tính kết quả trước.',
  prizeWithdrawn: 'Đã rút giải. Danh sách giải, kinh phí, tệp xuất và trang của gia đình đều đã bỏ giải này.',
  /** Results out of date (issue 42.1): the results page, the publish dialog and a refused publish. */
  outOfDate: (count: number, computedAt: string) =>
    `Kết quả đã cũ: có ${count} thay đổi có thể làm đổi giải sau lần tính lúc ${computedAt}. Hãy tính lại kết quả trước khi công bố.`,
  outOfDatePublishRefused: (count: number, computedAt: string) =>
    `Không công bố: kết quả đã cũ (${count} thay đổi có thể làm đổi giải sau lần tính lúc ${computedAt}). Hãy tính lại kết quả, hoặc xác nhận công bố kết quả này kèm lý do.`,
  outOfDateChangedAgain: 'Đã có thêm thay đổi sau khi bạn xem kết quả. Hãy xem lại danh sách thay đổi rồi xác nhận lại.',
  outOfDateNothingToConfirm: 'Kết quả không còn cũ nữa: hãy tải lại trang rồi công bố.',
  /** The exports' and the prize list's note on a pupil (issue 42): why ranked last or without a prize, an erased holder. */
  noteHeld: (reason: string | null) => (reason ? `Tạm giữ giải: ${reason} (xếp sau mọi thí sinh khác)` : 'Tạm giữ giải (xếp sau mọi thí sinh khác)'),
  /** `withdrawn`: "Giải Nhất: <reason>", several joined by "; ". */
  noteWithdrawn: (withdrawn: string) => `Đã rút ${withdrawn}`,
  noteErased: 'Dữ liệu cá nhân của thí sinh đã được xoá theo yêu cầu (hoặc hết thời hạn lưu giữ)',
} as const;
