// The messages of the back office's forms and imports (ours: the spec gives none), one object per
// area; the admin schemas re-export theirs. Apart from index.ts so that only the back office's
// chunk carries them (index.ts is in every page's).
import { formatNumber } from '../format';
import { ANSWER_MAX_LENGTH, MAX_ANSWERS, MIN_ANSWERS, QUESTION_MAX_LENGTH } from '../question-formats/question-text';
import { catalogLimits, contestLimits, NEWS_NAME_MAX, PRIVACY_REASON_MAX, PRIVACY_REASON_MIN } from '../rules';

export const importMessages = {
  noFile: 'Vui lòng chọn tệp cần nhập (trường "file").',
  tooLarge: (mb: number) => `Tệp quá lớn: tối đa ${mb} MB. Hãy chia tệp thành nhiều phần.`,
  unsupported: (accepted: string) => `Định dạng tệp không được hỗ trợ. Hãy dùng tệp ${accepted}.`,
  notUtf8:
    'Tệp CSV không phải UTF-8 (Excel trên Windows tiếng Việt thường lưu CP1258, chữ có dấu sẽ bị hỏng). Trong Excel chọn "Save As" > "CSV UTF-8 (Comma delimited)", hoặc lưu thành .xlsx rồi nhập lại.',
  unreadable: 'Không đọc được tệp. Hãy lưu lại bằng Excel dưới dạng .xlsx rồi nhập lại.',
  empty: 'Tệp không có dòng dữ liệu nào (dòng 1 là tiêu đề, dữ liệu bắt đầu từ dòng 2).',
  tooManyRows: (max: number) => `Tệp có quá nhiều dòng: tối đa ${formatNumber(max)} dòng mỗi lần nhập.`,
  tooManyQuestions: (max: number) => `Tệp có quá nhiều câu hỏi: tối đa ${formatNumber(max)} câu hỏi mỗi lần nhập. Hãy chia tệp thành nhiều phần.`,
  wrongColumns: (expected: readonly string[]) => `Dòng tiêu đề phải có các cột: ${expected.join(', ')} (theo thứ tự bất kỳ). Hãy tải tệp mẫu và điền theo mẫu.`,
  unknownColumn: (found: string, expected: readonly string[]) => `cột "${found}" không có trong mẫu (các cột của mẫu: ${expected.join(', ')})`,
  missingColumn: (title: string) => `thiếu cột "${title}"`,
  repeatedColumn: (found: string, first: string) => `cột "${found}" trùng với cột "${first}" (cùng là cột của mẫu)`,
  hasProblems: (count: number) => `Tệp có ${formatNumber(count)} lỗi. Chưa có dữ liệu nào được lưu; hãy sửa tệp rồi nhập lại.`,
  moreProblems: (listed: number, total: number) => `Dưới đây là ${formatNumber(listed)} lỗi đầu tiên; còn ${formatNumber(total - listed)} lỗi khác không được liệt kê.`,
  inflatedTooLarge:
    'Nội dung tệp .xlsx sau khi giải nén quá lớn hoặc bị nén bất thường, nên không được đọc. Hãy mở tệp bằng Excel, lưu lại dưới dạng .xlsx, hoặc chia thành nhiều tệp nhỏ hơn rồi nhập lại.',
  required: 'không được để trống',
  duplicateRow: (other: number) => `trùng với dòng ${other}`,
} as const;

export const adminAccountMessages = {
  locked: 'Tài khoản này đã bị khoá. Vui lòng liên hệ ban tổ chức cuộc thi.',
  lockedNoLink: 'Tài khoản đang bị khoá: hãy mở khoá trước khi gửi liên kết đặt mật khẩu.',
  cannotLockSelf: 'Bạn không thể tự khoá tài khoản của chính mình.',
  notFound: 'Không tìm thấy tài khoản.',
  phoneTaken: 'Số điện thoại này đã có tài khoản.',
  phoneOfOtherRole: (role: string) => `số điện thoại này đã là tài khoản ${role}, không thể làm quản trị trường`,
  nameRequired: 'Vui lòng nhập họ và tên.',
  nameTooLong: 'Họ và tên không được quá 120 ký tự.',
  districtRequired: 'Vui lòng chọn quận/huyện.',
  schoolRequired: 'Vui lòng chọn trường.',
  schoolNotInDistrict: 'Trường không thuộc quận/huyện đã chọn.',
  smsFailed: 'Không gửi được tin nhắn: hãy gửi liên kết cho người dùng bằng cách khác. Dữ liệu đã được lưu.',
} as const;

export const booksMessages = {
  nameRequired: 'Vui lòng nhập tên sách.',
  nameTooLong: 'Tên sách tối đa 200 ký tự.',
  authorTooLong: 'Tên tác giả tối đa 200 ký tự.',
  groupRequired: 'Vui lòng chọn nhóm lớp.',
  bookNotFound: 'Không tìm thấy sách.',
  groupNotFound: 'Nhóm lớp không tồn tại.',
  groupLocked: 'Sách đã có bài thi nên không thể chuyển sang nhóm lớp khác.',
  questionRequired: 'Vui lòng nhập câu hỏi.',
  questionTooLong: `Câu hỏi tối đa ${QUESTION_MAX_LENGTH} ký tự.`,
  answerRequired: 'Vui lòng nhập đáp án.',
  answerTooLong: `Đáp án tối đa ${ANSWER_MAX_LENGTH} ký tự.`,
  answerCount: `Mỗi câu hỏi có từ ${MIN_ANSWERS} đến ${MAX_ANSWERS} đáp án.`,
  correctRequired: 'Vui lòng chọn đáp án đúng.',
  sameAnswers: 'Hai đáp án giống nhau.',
  audioUnknown: 'Tệp âm thanh không tồn tại: hãy tải lên lại.',
  questionNotFound: 'Không tìm thấy câu hỏi.',
  questionDrawn: 'Câu hỏi đã có trong bài thi của thí sinh nên không thể xoá (vẫn có thể sửa).',
  drawnToPractice: 'Câu hỏi đã có trong bài thi thật của thí sinh nên không thể chuyển thành câu thi thử.',
  practiceLabel: 'Câu hỏi thi thử',
  practiceHint: 'Chỉ dùng cho bài thi thử của nhóm lớp, không bao giờ có trong bài thi thật.',
  bankTooSmall: (count: number, needed: number) =>
    `Đang trong thời gian thi: ngân hàng của sách phải còn ít nhất ${needed} câu hỏi (số câu của một bài thi), hiện có ${count}.`,
  replaceWithExams: 'Sách đã có bài thi nên không thể thay cả ngân hàng câu hỏi. Hãy chọn "Thêm vào" để bổ sung câu hỏi mới.',
  unknownTextFormat: 'Không nhận ra định dạng tệp .txt: hãy dùng định dạng Aiken (dòng "ANSWER: A") hoặc GIFT ({=đúng ~sai}) của Moodle.',
  emptyText: 'Tệp không có câu hỏi nào.',
  badMode: 'Chế độ nhập phải là "append" (thêm vào) hoặc "replace" (thay cả ngân hàng).',
} as const;

export const catalogMessages = {
  nameRequired: 'Vui lòng nhập tên.',
  tooLong: (max: number) => `Tối đa ${max} ký tự.`,
  districtRequired: 'Vui lòng chọn quận/huyện.',
  schoolRequired: 'Vui lòng chọn trường.',
  groupRequired: 'Vui lòng chọn nhóm lớp.',
  pupilCount: `Số học sinh phải là số nguyên từ 0 đến ${catalogLimits.pupilCount.toLocaleString('vi-VN')}.`,
  position: 'Thứ tự phải là số nguyên từ 0 đến 999.',
  classRequired: 'Vui lòng nhập lớp.',
  teacherRequired: 'Vui lòng nhập tên giáo viên.',
  gradesRequired: 'Vui lòng nhập các khối lớp (ví dụ 1-2).',
  mergeTargetRequired: 'Vui lòng chọn nơi gộp vào.',
} as const;

export const contestMessages = {
  invalid: 'Cài đặt chưa hợp lệ. Vui lòng kiểm tra các ô được đánh dấu.',
  saved: 'Đã lưu cài đặt cuộc thi.',
  nameRequired: 'Tên cuộc thi là bắt buộc.',
  nameTooLong: `Tên cuộc thi tối đa ${contestLimits.nameMax} ký tự.`,
  badDate: 'Ngày giờ không hợp lệ (dạng ISO 8601, ví dụ 2026-04-02T08:00:00+07:00).',
  examEndsBeforeStart: 'Thời điểm đóng thi phải sau thời điểm mở thi.',
  resultsBeforeExamEnds: 'Ngày công bố kết quả không được trước thời điểm đóng thi.',
  readingEndsBeforeStart: 'Thời điểm kết thúc đọc sách phải sau thời điểm bắt đầu.',
  readingAfterExam: 'Thời gian đọc sách phải bắt đầu trước khi mở thi.',
  ceremonyEndsBeforeStart: 'Thời điểm kết thúc trao giải phải sau thời điểm bắt đầu.',
  ceremonyBeforeResults: 'Lễ trao giải không được trước ngày công bố kết quả.',
  between: (min: number, max: number) => `Phải là số nguyên từ ${min} đến ${max}.`,
  tierName: 'Tên giải là bắt buộc (tối đa 200 ký tự).',
  tooManyTiers: (label: string) => `${label}: tối đa ${contestLimits.tiersPerKind} hạng giải.`,
  onePupilsTier: 'Quà cho học sinh tiêu biểu chỉ có một hạng.',
  duplicateCode: 'Mỗi hạng giải chỉ được xuất hiện một lần.',
  shortBanks: (books: string) => `Cuộc thi đang mở nhưng các sách sau chưa đủ câu hỏi cho một bài thi: ${books}. Hãy thêm câu hỏi trước.`,
  shortBanksWarning: (books: string) => `Các sách sau chưa đủ câu hỏi cho một bài thi: ${books}. Cần bổ sung trước khi mở thi.`,
  resultsPublished: 'Kết quả đã được công bố: không thể đổi giải thưởng hay số thí sinh tối thiểu của lớp nữa.',
  recompute: 'Kết quả đã được tính trước đây: hãy tính lại kết quả để áp dụng giải thưởng mới.',
} as const;

/** The back office's money fields (shared/money.ts). */
export const moneyMessages = {
  required: 'Hãy nhập số tiền, ví dụ 300.000.',
  negative: 'Số tiền không được âm.',
  ambiguous: (typed: string) => `"${typed}" có thể hiểu theo hai cách. Hãy viết đủ số đồng, dấu chấm tách hàng nghìn, ví dụ 300.000 hoặc 1.000.000 đ.`,
  notANumber: 'Số tiền chỉ gồm chữ số, dấu chấm tách hàng nghìn và chữ "đ" nếu muốn, ví dụ 300.000 hoặc 1.000.000 đ.',
  notWhole: 'Số tiền phải là số đồng tròn, không có phần lẻ.',
  tooLarge: 'Số tiền quá lớn.',
} as const;

export const newsMessages = {
  nameRequired: 'Vui lòng nhập tiêu đề.',
  nameTooLong: `Tiêu đề tối đa ${NEWS_NAME_MAX} ký tự.`,
  bodyRequired: 'Vui lòng nhập nội dung bài viết.',
  bodyTooLong: 'Nội dung quá dài: hãy chia thành nhiều bài.',
  imageInvalid: 'Ảnh phải là ảnh đã tải lên trang này.',
  slugTaken: 'Đường dẫn của bài viết vừa bị một bài khác dùng. Vui lòng lưu lại.',
} as const;

export const privacyAdminMessages = {
  reasonRequired: `Hãy ghi lý do (ít nhất ${PRIVACY_REASON_MIN} ký tự), ví dụ: "Phụ huynh gọi điện ngày 25/11 yêu cầu xoá".`,
  reasonTooLong: `Lý do tối đa ${PRIVACY_REASON_MAX} ký tự.`,
  parentsOnly: 'Chỉ tài khoản phụ huynh mới có dữ liệu của thí sinh để sao chép hay xoá theo yêu cầu.',
  alreadyDeleted: 'Tài khoản này đã được xoá trước đây.',
  accountNotFound: 'Không tìm thấy tài khoản.',
  erased: 'Đã xoá tài khoản theo yêu cầu.',
  copied: 'Đã tải bản sao dữ liệu của tài khoản.',
} as const;
