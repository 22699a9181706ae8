// Demo accounts (also listed in the README). Only ever created by the demo seed.
export const demoAccounts = {
  schoolAdmin: { phone: '0901000001', password: 'truong123', name: 'Quản trị Trường Tiểu học Lê Lợi', school: 'Trường Tiểu học Lê Lợi' },
  parent: {
    phone: '0987654321',
    password: 'phuhuynh123',
    children: [
      { fullname: 'Nguyễn Minh Anh', school: 'Trường Tiểu học Lê Lợi', classRoom: '2A1' },
      { fullname: 'Nguyễn Đức Trường', school: 'Trường Tiểu học Lê Lợi', classRoom: '5A3' },
    ],
  },
  organiser: { phone: '0901000009', password: 'bantochuc123', name: 'Ban tổ chức' },
  // The education offices' read-only viewers (issue 41): the whole province, and one unit.
  provinceViewer: { phone: '0901000011', password: 'xemtinh123', name: 'Sở Giáo dục và Đào tạo' },
  unitViewer: { phone: '0901000012', password: 'xemdonvi123', name: 'Phòng Giáo dục và Đào tạo thành phố An Hoà', units: ['Thành phố An Hoà'] },
} as const;
