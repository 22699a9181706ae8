// Texts of the seasons (issue 26): ours, the spec has one season.

export const seasonMessages = {
  readOnly: (name: string) => `${name} đã kết thúc: dữ liệu của mùa thi trước chỉ được xem, không sửa được.`,
  seasonNotFound: 'Không tìm thấy mùa thi.',
  contestantOfPastSeason: 'Thí sinh này thuộc mùa thi trước. Vui lòng chọn thí sinh của mùa thi hiện tại.',
  classPending: 'Bé đã lên lớp mới: vui lòng cập nhật nhóm lớp và lớp của bé cho mùa thi mới trước khi vào thi.',
  finished: 'Đã hoàn thành bậc tiểu học: không còn dự thi.',
  classNotAnswered: 'Chưa cập nhật lớp',
  classPendingNotice: 'Mùa thi mới: bé đã lên lớp. Vui lòng chọn lại nhóm lớp và lớp của bé năm nay rồi bấm Lưu.',
  newSeasonBanner: 'Mùa thi mới đã bắt đầu. Các bé đã lên một lớp: vui lòng chọn lại lớp của từng bé trước khi vào thi.',
  finishedTitle: 'Đã hoàn thành bậc tiểu học',
  nameTaken: 'Tên mùa thi này đã có. Vui lòng đặt tên khác.',
  bookCopyUnknown: 'Sách để chép ngân hàng câu hỏi không thuộc mùa thi hiện tại.',
  switchChanged: 'Mùa thi hiện tại vừa thay đổi. Vui lòng tải lại trang và xem lại.',
  needsBooks: 'Mùa thi mới cần ít nhất một cuốn sách.',
  switched: (name: string) => `Đã mở ${name}.`,
  notFamilySeason: 'Không tìm thấy mùa thi này trong các mùa thi của gia đình.',
  parentsOnly: 'Chỉ tài khoản phụ huynh mới xem được kết quả các mùa thi của con.',
  viewOnly: (name: string) => `${name} đã kết thúc: chỉ xem, không sửa được.`,
} as const;
