// Texts of the public winners' list and the consent to publish a child's name (issue 37.2): ours,
// the spec has no such page.

export const winnersMessages = {
  title: 'Danh sách đoạt giải',
  notPublished: 'Kết quả chưa được công bố. Danh sách đoạt giải sẽ có tại đây khi Ban tổ chức công bố kết quả.',
  intro: (season: string, publishedOn: string) => `${season}: kết quả công bố ngày ${publishedOn}.`,
  privacyNote:
    'Họ tên học sinh chỉ hiện khi phụ huynh đã đồng ý công bố; nếu không, danh sách ghi lớp và trường của em. Danh sách không có số điện thoại hay mã số nào.',
  searchLabel: 'Tìm theo tên trường',
  searchHint: 'Gõ tên trường, có dấu hay không dấu đều được.',
  searchButton: 'Tìm',
  noneFound: (school: string) => `Không có học sinh, trường hay giáo viên đoạt giải nào của trường khớp với "${school}".`,
  none: 'Kết quả đã công bố nhưng chưa có giải nào được trao.',
  count: (total: number) => `${total.toLocaleString('vi-VN')} giải`,
  loadFailed: 'Không tải được danh sách đoạt giải. Vui lòng thử lại.',
  homeLink: 'Xem danh sách đoạt giải',
  rulesLink: 'Danh sách đoạt giải',
  /** The consent item at enrolment and in the profile (unticked by default). */
  consentLabel: 'Tôi đồng ý công bố họ tên của con trong danh sách đoạt giải trên trang web và khi trao giải, nếu con đạt giải.',
  consentHint: 'Không đồng ý: danh sách chỉ ghi "Học sinh lớp …, Trường …". Bạn có thể thay đổi lựa chọn này bất cứ lúc nào.',
  consentSubject: (fullname: string) => `Công bố họ tên của ${fullname} trong danh sách đoạt giải`,
  /** The organiser's PDF for the ceremony. */
  pdfTitle: 'DANH SÁCH ĐOẠT GIẢI',
  pdfButton: 'Tải danh sách đoạt giải (PDF, in trao giải)',
  pdfHint: 'Khổ A4, theo từng giải; họ tên học sinh chỉ in khi phụ huynh đã đồng ý công bố, như trên trang công khai.',
  pdfFailed: 'Không tải được danh sách đoạt giải. Vui lòng thử lại.',
  pdfNotPublished: 'Kết quả chưa được công bố: danh sách đoạt giải để in chỉ có sau khi công bố.',
} as const;

/** A winner without the parent's consent: "Học sinh lớp 3A, Trường Tiểu học Lê Lợi". */
export const hiddenPupilName = (className: string, school: string) => `Học sinh lớp ${className}, ${school}`;

/** A class's teacher prize whose teacher's name is not known. */
export const unnamedTeacher = (className: string) => `Giáo viên chủ nhiệm lớp ${className}`;
