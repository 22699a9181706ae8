// Audit kinds ('school.update', 'questions.import') in Vietnamese words: the thing, then what was
// done to it. A part not listed here is shown as it is.

const things: Record<string, string> = {
  district: 'Quận/huyện',
  school: 'Trường',
  schools: 'Trường',
  class: 'Lớp',
  class_room: 'Lớp',
  class_group: 'Khối lớp',
  class_teacher: 'Giáo viên chủ nhiệm',
  class_teachers: 'Giáo viên chủ nhiệm',
  teacher: 'Giáo viên',
  book: 'Sách',
  question: 'Câu hỏi',
  questions: 'Câu hỏi',
  account: 'Tài khoản',
  user: 'Tài khoản',
  school_admin: 'Quản trị trường',
  school_admins: 'Quản trị trường',
  organiser: 'Ban tổ chức',
  contest: 'Cuộc thi',
  season: 'Mùa thi',
  settings: 'Cài đặt',
  site_settings: 'Chân trang',
  prizes: 'Giải thưởng',
  news: 'Tin tức',
  media: 'Tệp tải lên',
  privacy: 'Dữ liệu cá nhân',
  certificate: 'Giấy chứng nhận',
  exam: 'Lượt thi',
  results: 'Kết quả',
  prize: 'Giải thưởng',
  messages: 'Tin nhắn cho phụ huynh',
  // The education offices' viewers (issue 41): 'viewer.view' a page or an export they opened, 'viewers.import' a file of them.
  viewer: 'Tài khoản xem số liệu',
  viewers: 'Tài khoản xem số liệu',
};

const actions: Record<string, string> = {
  create: 'thêm',
  update: 'sửa',
  delete: 'xoá',
  import: 'nhập từ tệp',
  merge: 'gộp',
  rename: 'đổi tên',
  replace: 'thay thế',
  publish: 'đăng',
  unpublish: 'gỡ',
  image_upload: 'tải ảnh lên',
  cover: 'đổi ảnh bìa',
  audio: 'tải âm thanh',
  lock: 'khoá',
  unlock: 'mở khoá',
  reset_link: 'cấp liên kết đặt mật khẩu',
  password_reset: 'cấp liên kết đặt mật khẩu',
  set_password_link: 'cấp liên kết đặt mật khẩu',
  copy: 'cung cấp bản sao theo yêu cầu',
  erase: 'xoá tài khoản theo yêu cầu',
  regrade: 'chấm lại',
  revoke: 'thu hồi',
  extra_attempt: 'thêm một lượt thi',
  extra_attempt_withdraw: 'rút lượt thi thêm',
  withdraw: 'rút giải',
  open: 'mở',
  extend: 'gia hạn',
  compute: 'tính',
  tie_decision: 'quyết định đồng hạng',
  export: 'xuất tệp',
  send: 'gửi',
  view: 'xem số liệu',
};

/** 'news.publish' -> 'Tin tức: đăng'; unknown parts as they are. */
export function kindLabel(kind: string): string {
  const [thing = '', ...rest] = kind.split('.');
  const action = rest.join('.');
  const thingWord = things[thing] ?? thing;
  return action ? `${thingWord}: ${actions[action] ?? action}` : thingWord;
}

/** The kind filter's choices: a thing matches all its kinds (the API filters 'school' as 'school.*'). */
export const kindFilters: { value: string; label: string }[] = [
  { value: 'district', label: things.district! },
  { value: 'school', label: things.school! },
  { value: 'class_teacher', label: things.class_teacher! },
  { value: 'book', label: things.book! },
  { value: 'questions', label: things.questions! },
  { value: 'account', label: things.account! },
  { value: 'school_admin', label: things.school_admin! },
  { value: 'contest', label: things.contest! },
  { value: 'settings', label: things.settings! },
  { value: 'news', label: things.news! },
  { value: 'privacy', label: things.privacy! },
  { value: 'exam', label: things.exam! },
  { value: 'results', label: things.results! },
  { value: 'prize', label: things.prize! },
  { value: 'certificate', label: things.certificate! },
  { value: 'viewer', label: things.viewer! },
];

const fields: Record<string, string> = {
  name: 'Tên',
  title: 'Tiêu đề',
  body_html: 'Nội dung',
  image: 'Ảnh',
  published: 'Đã đăng',
  address: 'Địa chỉ',
  pupil_count: 'Số học sinh',
  phone: 'Số điện thoại',
  author: 'Tác giả',
  file: 'Tệp',
  counts: 'Số dòng',
};

export const fieldLabel = (field: string) => fields[field] ?? field;
