// The catalogue's move to a new map between seasons (issue 36, decision 038): the rules that are
// pure (unit tested in catalogue-move.test.ts) and the texts the server and the web share.
import { foldText } from './vietnamese';
import { nameKey } from './vietnamese';

/**
 * What two names must share to be matched by the move: the folded name (no accents, no tone
 * marks, any case), spaces collapsed. "Truong TH Hoa Binh" finds "Trường TH Hòa Bình".
 */
export const matchKey = (text: string) => foldText(text).replace(/\s+/gu, ' ').trim();

/**
 * Whether a name in the file matched a catalogue name only by folding: the organiser must confirm
 * it. Two spellings of one name (tone placement, case, spaces: nameKey) are the same name and need
 * no confirmation ("Hoà Bình" = "Hòa Bình"); "Hoa Binh" for "Hòa Bình" does.
 */
export const needsConfirmation = (typed: string, catalogued: string) => nameKey(typed) !== nameKey(catalogued);

/** A child's school after the move, told on the profile (null: nothing to tell). */
export function schoolNotice(child: {
  school: string;
  district: string;
  closed: boolean;
  classPending: boolean;
  previous: { id: number; school: string; district: string } | null;
  schoolId: number;
}): string | null {
  if (child.closed) return moveMessages.schoolClosedNotice(child.school);
  const before = child.previous;
  if (!before || !child.classPending) return null;
  if (before.id !== child.schoolId) return moveMessages.schoolMergedNotice(before.school, child.school, child.district);
  if (nameKey(before.school) !== nameKey(child.school) || nameKey(before.district) !== nameKey(child.district)) {
    return moveMessages.schoolChangedNotice(before.school, before.district, child.school, child.district);
  }
  return null;
}

export const moveMessages = {
  schoolClosedNotice: (school: string) => `${school} không còn trong danh mục của mùa thi này. Vui lòng chọn trường mới của bé rồi bấm Lưu.`,
  schoolMergedNotice: (before: string, school: string, district: string) =>
    `${before} đã được sáp nhập vào ${school} (${district}). Trường của bé nay là ${school}: vui lòng xác nhận lớp của bé rồi bấm Lưu.`,
  schoolChangedNotice: (before: string, beforeDistrict: string, school: string, district: string) =>
    `Theo danh mục mới, trường của bé nay là ${school} (${district}), trước đây là ${before} (${beforeDistrict}). Vui lòng xác nhận lớp của bé rồi bấm Lưu.`,
  schoolClosed: 'Trường này đã đóng từ mùa thi này (theo danh mục mới). Vui lòng chọn trường khác.',
  namesUnconfirmed: (count: number, rows: string) =>
    `Còn ${count} trường được khớp theo tên viết khác chưa được xác nhận (${rows}). Vui lòng xem lại và đánh dấu xác nhận từng trường trước khi lưu.`,
  oldSchoolNotFound: (name: string) => `Không tìm thấy trường cũ "${name}" trong danh mục (các trường đang mở).`,
  oldSchoolAmbiguous: (name: string, count: number) => `Có ${count} trường tên "${name}": ghi thêm cột Mã trường hoặc đơn vị cũ để chọn đúng trường.`,
  codeUnknown: (code: string) => `Mã trường ${code} không có trong danh mục (các trường đang mở).`,
  schoolTwice: (name: string, row: number) => `Trường "${name}" đã có ở dòng ${row}: mỗi trường cũ chỉ ở một dòng.`,
  formerProvinceTwice: (unit: string, first: string) => `Đơn vị "${unit}" đã có tỉnh cũ "${first}" ở dòng trước: một đơn vị chỉ thuộc một tỉnh cũ.`,
  closedNameTaken: (name: string) => `"${name}" là tên một trường đã đóng của đơn vị này: vui lòng đặt tên khác.`,
  whileComputing: 'Kết quả đang được tính: vui lòng chờ tính xong rồi nhập lại danh mục mới.',
  audit: (file: string, what: string) => `Chuyển danh mục sang bản đồ mới từ tệp ${file}: ${what}`,
} as const;
