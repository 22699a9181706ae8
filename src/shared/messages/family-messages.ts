// The messages-to-families area (back office /quan-tri/tin-nhan and the opt-out page /tu-choi/…):
// its form, its rules' refusals and its report. Ours: the spec gives none.
import { formatNumber } from '../format';

export const familyMessageTexts = {
  bodyRequired: 'Vui lòng nhập nội dung tin nhắn.',
  tooLong: (segments: number, length: number, perSegment: number, encoding: 'gsm7' | 'ucs2') =>
    `Tin nhắn dài ${formatNumber(length)} ký tự, cần ${formatNumber(segments)} tin SMS; chỉ được gửi 1 tin (tối đa ${formatNumber(perSegment === 67 ? 70 : 160)} ký tự ${
      encoding === 'ucs2' ? 'khi có chữ có dấu' : 'khi không dấu'
    }, đã gồm đường dẫn từ chối nhận tin). Hãy rút gọn${encoding === 'ucs2' ? ' hoặc viết không dấu (160 ký tự một tin)' : ''}.`,
  missingParameters: (names: string[]) => `Thiếu giá trị cho tham số: ${names.map((name) => `{${name}}`).join(', ')}.`,
  znsTemplateRequired: 'Vui lòng nhập mã mẫu ZNS đã được Zalo duyệt.',
  znsUnavailable: 'Kênh Zalo ZNS chưa được cấu hình trên máy chủ (ZNS_DRIVER, ZNS_ACCESS_TOKEN). Hãy chọn SMS.',
  emptyAudience: 'Không có phụ huynh nào trong nhóm nhận đã chọn (hoặc tất cả đã từ chối nhận tin). Hãy chọn nhóm khác.',
  districtRequired: 'Vui lòng chọn đơn vị.',
  schoolRequired: 'Vui lòng chọn trường.',
  campaignNotFound: 'Không tìm thấy đợt gửi tin này.',
  reminderTwice: 'Vừa có một đợt nhắc nhở khác được tạo cùng lúc. Vui lòng thử lại.',
  priceInvalid: 'Giá phải là số đồng không âm.',
  capInvalid: 'Hạn mức phải là số nguyên không âm.',
  optOutNotFound: 'Đường dẫn từ chối nhận tin không đúng hoặc đã hết hiệu lực.',
} as const;

/** Who receives a message: every parent of the season, of a unit, of a school, of children with attempts left, of prize winners. */
export const audienceLabels = {
  season: 'Tất cả phụ huynh của mùa thi',
  district: 'Phụ huynh của một đơn vị',
  school: 'Phụ huynh của một trường',
  attempts_left: 'Phụ huynh có con còn lượt thi',
  winners: 'Phụ huynh có con đạt giải',
} as const;
/** The audience of one unit or school, named in the campaign and its audit entry. */
export const parentsOf = (place: string) => `Phụ huynh của ${place}`;

export const templateLabels = {
  custom: 'Tự soạn',
  results_published: 'Đã công bố kết quả',
  certificates_ready: 'Đã có giấy chứng nhận',
  reminder: 'Nhắc còn lượt thi trước khi đóng cổng',
} as const;

export const recipientStatusLabels = {
  waiting: 'Đang chờ',
  sending: 'Đang gửi',
  sent: 'Đã gửi',
  failed: 'Lỗi',
  opted_out: 'Bỏ qua: đã từ chối nhận tin',
  reminded_today: 'Bỏ qua: đã nhận nhắc nhở hôm nay',
} as const;

export const channelLabels = { sms: 'SMS', zns: 'Zalo ZNS' } as const;
