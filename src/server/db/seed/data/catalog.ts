// A sample province: districts and their primary schools (names are invented).
import type { SeedDistrict } from './types';

export const districts: SeedDistrict[] = [
  {
    name: 'Thành phố An Hoà',
    schools: [
      { name: 'Trường Tiểu học Lê Lợi', address: 'Số 5 đường Lê Lợi, phường Minh Khai, thành phố An Hoà', pupilCount: 1250 },
      { name: 'Trường Tiểu học Nguyễn Trãi', address: 'Số 18 đường Nguyễn Trãi, phường Hoà Bình, thành phố An Hoà', pupilCount: 980 },
      { name: 'Trường Tiểu học Kim Đồng', address: 'Số 2 phố Kim Đồng, phường Quang Trung, thành phố An Hoà', pupilCount: 1430 },
      { name: 'Trường Tiểu học Võ Thị Sáu', address: 'Số 40 đường Võ Thị Sáu, phường Tân Tiến, thành phố An Hoà', pupilCount: 860 },
      { name: 'Trường Tiểu học Trần Quốc Toản', address: 'Số 9 đường Trần Quốc Toản, phường Đông Sơn, thành phố An Hoà', pupilCount: 1120 },
    ],
  },
  {
    name: 'Huyện Sông Cầu',
    schools: [
      { name: 'Trường Tiểu học Thị trấn Sông Cầu', address: 'Khu phố 2, thị trấn Sông Cầu, huyện Sông Cầu', pupilCount: 720 },
      { name: 'Trường Tiểu học Xuân Lộc', address: 'Thôn Đông, xã Xuân Lộc, huyện Sông Cầu', pupilCount: 410 },
      { name: 'Trường Tiểu học Phú Mỹ', address: 'Thôn Phú Mỹ, xã Phú Mỹ, huyện Sông Cầu', pupilCount: 365 },
      { name: 'Trường Tiểu học Hoà Thuận', address: 'Thôn 3, xã Hoà Thuận, huyện Sông Cầu', pupilCount: 298 },
    ],
  },
  {
    name: 'Huyện Đồng Xanh',
    schools: [
      { name: 'Trường Tiểu học Đồng Xanh', address: 'Tổ 4, thị trấn Đồng Xanh, huyện Đồng Xanh', pupilCount: 640 },
      { name: 'Trường Tiểu học Tân Lập', address: 'Bản Tân Lập, xã Tân Lập, huyện Đồng Xanh', pupilCount: 255 },
      { name: 'Trường Tiểu học Suối Ngọc', address: 'Thôn Suối Ngọc, xã Ngọc Sơn, huyện Đồng Xanh', pupilCount: 312 },
      { name: 'Trường Tiểu học Hương Sơn', address: 'Thôn Hương Sơn, xã Hương Sơn, huyện Đồng Xanh', pupilCount: 188 },
    ],
  },
];

/** Class rooms of each grade: 1A1..1A6 and so on. */
export const classRoomsOfGrade = (grade: number) => Array.from({ length: 6 }, (_, i) => `${grade}A${i + 1}`);
