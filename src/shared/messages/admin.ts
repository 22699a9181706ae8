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
  totalRowSkipped: (row: number) => `Dòng ${row} là dòng tổng cộng, không phải một bản ghi: đã bỏ qua.`,
} as const;

export const adminAccountMessages = {
  locked: 'Tài khoản này đã bị khoá. Vui lòng liên hệ ban tổ chức cuộc thi.',
  lockedNoLink: 'Tài khoản đang bị khoá: hãy mở khoá trước khi gửi liên kết đặt mật khẩu.',
  cannotLockSelf: 'Bạn không thể tự khoá tài khoản của chính mình.',
  /** An import of accounts that met a phone added meanwhile. */
  listChanged: 'Danh sách tài khoản vừa thay đổi ở nơi khác. Vui lòng kiểm tra và nhập lại tệp.',
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
  /** Two books added at the same moment took the same position. */
  addedMeanwhile: 'Có sách khác vừa được thêm cùng lúc. Vui lòng thử lại.',
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
  /** Another import or edit created the same school or district meanwhile. */
  changedDuringImport: 'Danh mục vừa được thay đổi bởi một thao tác khác. Hãy nhập lại tệp.',
} as const;

/** The catalogue's imports (schools, class teachers, classes): a row's problems, the changes listed, the audit. */
export const catalogImportMessages = {
  tooLong: (max: number) => `dài quá ${max} ký tự`,
  addressField: 'Địa chỉ',
  pupilCountField: 'Số học sinh',
  pupilCount: (max: number, typed: string) => `phải là số nguyên từ 0 đến ${max.toLocaleString('vi-VN')} (đang là "${typed}")`,
  unknownDistrict: (district: string) => `không có quận/huyện "${district}" trong danh mục`,
  unknownSchool: (school: string, district: string) => `không có trường "${school}" ở ${district}; hãy nhập danh sách trường trước`,
  unknownClass: (typed: string) => `không có lớp "${typed}" trong danh mục lớp`,
  unknownGroup: (typed: string, example: string | undefined) =>
    `không có nhóm lớp "${typed}" (hãy ghi tên nhóm lớp, ví dụ "${example ?? 'Nhóm 1'}", hoặc khối lớp, ví dụ "3")`,
  classInGroup: (className: string | undefined, group: string | undefined) => `lớp "${className}" đã có trong ${group}`,
  teacherKey: (school: string, classKey: string) => `${school} / Lớp ${classKey}`,
  schoolsImported: (file: string, c: { created: number; updated: number; unchanged: number; districts_created: number }) =>
    `Nhập trường từ tệp ${file}: thêm ${c.created}, cập nhật ${c.updated}, giữ nguyên ${c.unchanged}, quận/huyện mới ${c.districts_created}`,
  teachersImported: (file: string, c: { created: number; updated: number; unchanged: number }) =>
    `Nhập giáo viên các lớp từ tệp ${file}: thêm ${c.created}, cập nhật ${c.updated}, giữ nguyên ${c.unchanged}`,
  classesImported: (file: string, c: { created: number; unchanged: number }) => `Nhập lớp từ tệp ${file}: thêm ${c.created}, giữ nguyên ${c.unchanged}`,
} as const;

const count = (n: number) => n.toLocaleString('vi-VN');

/** The catalogue's changes (add, edit, delete, merge): refusals, counts and audit summaries. */
export const catalogChangeMessages = {
  districtNotFound: 'Không tìm thấy quận/huyện này (có thể đã bị xoá).',
  districtGone: 'Không tìm thấy quận/huyện này (có thể đã bị xoá hoặc gộp).',
  schoolNotFound: 'Không tìm thấy trường này (có thể đã bị xoá hoặc gộp).',
  groupNotFound: 'Không tìm thấy nhóm lớp này.',
  roomNotFound: 'Không tìm thấy lớp này (có thể đã bị xoá hoặc gộp).',
  teacherNotFound: 'Không tìm thấy giáo viên của lớp này.',
  districtTaken: (name: string) => `Đã có quận/huyện "${name}".`,
  schoolTaken: (name: string) => `Quận/huyện này đã có trường "${name}".`,
  groupTaken: 'Đã có nhóm lớp cùng tên hoặc cùng thứ tự.',
  roomTaken: (name: string) => `Nhóm lớp này đã có lớp "${name}".`,
  teacherTaken: (className: string) => `Lớp ${className} của trường này đã có giáo viên; hãy sửa dòng đó.`,
  districtUnknown: 'Quận/huyện không có trong danh mục.',
  groupUnknown: 'Nhóm lớp không có trong danh mục.',
  schoolUnknown: 'Trường không có trong danh mục.',
  districtHasSchools: (name: string, schools: number) =>
    `Không thể xoá quận/huyện "${name}": đang có ${count(schools)} trường. Hãy xoá hoặc gộp các trường trước, hoặc đổi tên quận/huyện.`,
  districtChanged: 'Quận/huyện vừa được thay đổi, hãy thử lại.',
  districtInUse: 'Quận/huyện đang được dùng, không xoá được.',
  schoolHasContestants: (name: string, contestants: number) =>
    `Không thể chuyển trường "${name}" sang quận/huyện khác: đã có ${count(contestants)} thí sinh đăng ký. Hãy tạo trường ở quận/huyện mới rồi gộp trường này vào đó.`,
  schoolUsed: (name: string, used: string) => `Không thể xoá trường "${name}": đang được dùng bởi ${used}. Hãy đổi tên trường, hoặc gộp trường vào một trường khác.`,
  schoolChanged: 'Trường vừa được thay đổi, hãy thử lại.',
  schoolInUse: 'Trường đang được dùng, không xoá được. Hãy gộp trường vào một trường khác.',
  groupUsed: (name: string, used: string) => `Không thể xoá nhóm lớp "${name}": đang có ${used}. Hãy đổi tên nhóm thay vì xoá.`,
  groupInUse: 'Nhóm lớp đang được dùng, không xoá được.',
  roomHasContestants: (name: string, contestants: number) =>
    `Không thể chuyển lớp "${name}" sang nhóm khác: đã có ${count(contestants)} thí sinh (các em thi sách của nhóm mình).`,
  roomUsed: (name: string, contestants: number) =>
    `Không thể xoá lớp "${name}": đang có ${count(contestants)} thí sinh. Hãy đổi tên lớp, hoặc gộp lớp vào một lớp khác cùng nhóm.`,
  roomInUse: 'Lớp đang có thí sinh, không xoá được. Hãy gộp lớp vào một lớp khác.',
  // Merges.
  sameRoom: 'Không thể gộp một lớp vào chính nó.',
  sameSchool: 'Không thể gộp một trường vào chính nó.',
  sameDistrict: 'Không thể gộp một quận/huyện vào chính nó.',
  pickOtherRoom: 'Hãy chọn một lớp khác.',
  pickOtherSchool: 'Hãy chọn một trường khác.',
  pickOtherDistrict: 'Hãy chọn một quận/huyện khác.',
  pickRoomOfGroup: 'Hãy chọn lớp cùng nhóm.',
  roomIntoGone: 'Lớp được gộp vào không còn trong danh mục.',
  schoolIntoGone: 'Trường được gộp vào không còn trong danh mục.',
  districtIntoGone: 'Quận/huyện được gộp vào không còn trong danh mục.',
  districtIntoNotFound: 'Không tìm thấy quận/huyện này.',
  roomOfOtherGroup: 'Chỉ gộp được vào một lớp cùng nhóm lớp (thí sinh thi sách của nhóm mình).',
  mergeWhileComputing: 'Đang tính kết quả cuộc thi: hãy gộp sau khi tính xong (gộp bây giờ sẽ làm hỏng lần tính này).',
  mergeSchoolCertificates: (name: string, certificates: number) =>
    `Không gộp được: trường "${name}" đã được cấp ${count(certificates)} giấy chứng nhận của trường (kết quả đã công bố). Gộp trường sẽ xoá các giấy này, nên Ban tổ chức giữ nguyên trường này.`,
  // What a deletion finds or a merge moves ("12 thí sinh, 1 tài khoản quản trị trường").
  counted: {
    contestants: 'thí sinh',
    schoolAdmins: 'tài khoản quản trị trường',
    classTeachers: 'giáo viên lớp',
    results: 'dòng kết quả, giấy chứng nhận',
    classRooms: 'lớp',
    books: 'sách',
    exams: 'bài thi',
    joinedClasses: 'lớp nhập với lớp cùng tên',
    pupilPrizes: 'giải của học sinh',
    schoolsMoved: 'trường chuyển sang',
    schoolsJoined: 'trường gộp vào trường cùng tên',
  },
  noContestants: 'không có thí sinh nào',
  nothingMoved: 'không có dữ liệu nào',
  noSchools: 'không có trường nào',
  // Audit summaries (the back office's log).
  audit: {
    districtCreated: (name: string) => `Thêm quận/huyện ${name}`,
    districtUpdated: (before: string, after: string) => `Sửa quận/huyện ${before} → ${after}`,
    districtDeleted: (name: string) => `Xoá quận/huyện ${name}`,
    schoolCreated: (name: string, district: string) => `Thêm trường ${name} (${district})`,
    schoolUpdated: (name: string) => `Sửa trường ${name}`,
    schoolDeleted: (name: string) => `Xoá trường ${name}`,
    groupCreated: (name: string) => `Thêm nhóm lớp ${name}`,
    groupUpdated: (name: string) => `Sửa nhóm lớp ${name}`,
    groupDeleted: (name: string) => `Xoá nhóm lớp ${name}`,
    roomCreated: (name: string, group: string) => `Thêm lớp ${name} (${group})`,
    roomUpdated: (name: string) => `Sửa lớp ${name}`,
    roomDeleted: (name: string) => `Xoá lớp ${name}`,
    roomMerged: (from: string, into: string, what: string) => `Gộp lớp ${from} vào ${into}: chuyển ${what}`,
    teacherCreated: (teacher: string, className: string, school: string) => `Thêm giáo viên ${teacher} lớp ${className} (${school})`,
    teacherUpdated: (className: string, school: string) => `Sửa giáo viên lớp ${className} (${school})`,
    teacherDeleted: (teacher: string, className: string) => `Xoá giáo viên ${teacher} lớp ${className}`,
    schoolMerged: (from: string, fromDistrict: string, into: string, intoDistrict: string, what: string) =>
      `Gộp trường ${from} (${fromDistrict}) vào ${into} (${intoDistrict}): chuyển ${what}`,
    districtMerged: (from: string, into: string, what: string, joined: string) => `Gộp quận/huyện ${from} vào ${into}: ${what}${joined ? ` (${joined})` : ''}`,
  },
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
  reviewOption: 'Hãy chọn một trong hai cách hiển thị đáp án đúng.',
  unitLevelOption: 'Hãy chọn Quận/Huyện hoặc Xã/Phường.',
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

const WHOLE_PROVINCE = 'Toàn tỉnh';
/** The education offices' viewers (issue 41, schemas/viewers.ts). Ours. */
export const viewerMessages = {
  kindRequired: 'Chọn phạm vi xem: toàn tỉnh hoặc đơn vị.',
  unitsRequired: 'Chọn ít nhất một đơn vị.',
  unitsTooMany: (max: number) => `Chọn nhiều nhất ${max} đơn vị.`,
  provinceHasNoUnits: 'Tài khoản xem toàn tỉnh không chọn đơn vị.',
  wholeProvince: WHOLE_PROVINCE,
  /** A unit id outside the viewer's scope (403). */
  outOfScope: 'Bạn không có quyền xem số liệu của đơn vị này.',
  /** The results page and export before the organiser publishes (409 for the export). */
  resultsNotPublished: 'Kết quả cuộc thi chưa được công bố.',
  /** POST /api/admin/viewers: an id of district_ids that is not in the catalogue. */
  unitUnknown: 'Có đơn vị không còn trong danh mục. Vui lòng chọn lại.',
  /** A phone that already has an account (any role). */
  phoneTakenBy: (role: string) => `Số điện thoại này đã là tài khoản ${role}.`,
  /** An import row whose phone is an account of another role. */
  phoneOfOtherRole: (role: string) => `số điện thoại này đã là tài khoản ${role}, không thể làm tài khoản xem số liệu`,
  /** An import row's unit that the catalogue does not have. */
  unitNotInCatalogue: (name: string) => `không có đơn vị "${name}" trong danh mục`,
  unitsTooManyInRow: (max: number) => `nhiều nhất ${max} đơn vị`,
  /** A viewer on a family's route (profile, exams, certificates, reports): viewers have no children. */
  noFamily: 'Tài khoản xem số liệu không có thí sinh: hãy dùng trang Số liệu.',
  /** What the scope is called in a summary line. */
  scopeOf: (units: string[]) => (units.length === 0 ? WHOLE_PROVINCE : units.join(', ')),
  audit: {
    created: (phone: string, name: string, scope: string) => `Tạo tài khoản xem số liệu ${phone} (${name}, ${scope})`,
    imported: (file: string, created: number, updated: number, unchanged: number) =>
      `Nhập tệp ${file}: thêm ${created}, cập nhật ${updated}, giữ nguyên ${unchanged} tài khoản xem số liệu`,
    /** viewer.view: a viewer opened a page or an export. */
    viewed: (what: string, scope: string) => `Xem ${what} (${scope})`,
  },
  /** What each viewer route shows, for the audit line. */
  views: {
    scope: 'phạm vi xem',
    participation: 'số liệu tham gia',
    results: 'kết quả',
    participationXlsx: 'tệp Excel số liệu tham gia',
    resultsXlsx: 'tệp Excel kết quả',
  },
} as const;
