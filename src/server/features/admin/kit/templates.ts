// GET /api/admin/templates/{kind}.xlsx: each import's template, written like the exports
// (lib/xlsx-writer.ts): a first sheet "Mẫu nhập …" with the template's columns (a bold, frozen,
// filtered header) and one example row in typed cells (a school's pupil count is a number), and a
// second sheet "Hướng dẫn" saying, column by column, what goes in it and which values the import
// accepts. The imports read the first sheet only (sheets.ts), so the guide never gets in the way.
// The limits quoted are the imports' own constants, so the guide cannot drift from the checks.
// Text cells are always text, so an example (or anything else) starting with "=" is never a formula.
import { MAX_IMPORT_ROWS, templateColumns, type TemplateKind } from '../../../../shared/schemas/admin';
import { ANSWER_LETTERS, ANSWER_MAX_LENGTH, MAX_ANSWERS, MIN_ANSWERS, QUESTION_MAX_LENGTH } from '../../../../shared/question-formats/question-text';
import { catalogLimits } from '../../../../shared/rules';
import { XlsxBuilder, type CellValue, type ColumnKind } from '../../../lib/xlsx-writer';
import { relabelUnit, unitLevelLabels, type UnitLevel } from '../../../../shared/unit-level';
import { VIEWER_UNITS_MAX } from '../../../../shared/schemas/viewers';

/** What the guide says of one column of a template. */
interface ColumnGuide {
  kind: ColumnKind;
  example: CellValue;
  required: boolean;
  content: string;
  allowed: string;
}

interface TemplateGuide {
  /** The first sheet's name (at most 31 characters). */
  sheet: string;
  /** One per column of templateColumns[kind], in its order. */
  columns: ColumnGuide[];
  /** What holds for the whole file, after the columns. */
  notes: string[];
}

const count = (n: number) => n.toLocaleString('vi-VN');
const upTo = (max: number) => `Chữ, tối đa ${count(max)} ký tự.`;
const DISTRICT_IN_CATALOGUE = 'Tên một quận/huyện đã có trong danh mục (không phân biệt chữ hoa, chữ thường và cách bỏ dấu: "Hoà" = "Hòa").';
const SCHOOL_IN_CATALOGUE = 'Tên một trường đã có trong danh mục, thuộc quận/huyện ở cột trước (nhập danh sách trường trước).';

const COMMON_NOTES = [
  'Dòng 1 là tên các cột: giữ nguyên tên cột; có thể đổi thứ tự các cột.',
  'Dòng 2 là ví dụ: hãy thay hoặc xoá trước khi nhập, nếu không nó cũng được nhập.',
  `Mỗi dòng tiếp theo là một bản ghi; tối đa ${count(MAX_IMPORT_ROWS)} dòng. Dòng trống được bỏ qua.`,
  'Chỉ trang tính đầu tiên được đọc; trang "Hướng dẫn" này không cần xoá.',
  'Nút "Kiểm tra tệp" đọc tệp và liệt kê lỗi theo dòng và cột, chưa lưu gì. Tệp còn lỗi thì không dòng nào được lưu.',
];

const answerGuide = (letter: string, index: number): ColumnGuide => ({
  kind: 'text',
  example: ['Dế Mèn', 'Dế Trũi', 'Chị Cốc', 'Xiến Tóc'][index]!,
  required: index < MIN_ANSWERS,
  content: `Đáp án ${letter}.`,
  allowed:
    index < MIN_ANSWERS
      ? `${upTo(ANSWER_MAX_LENGTH)} Không trùng với đáp án khác của câu.`
      : `${upTo(ANSWER_MAX_LENGTH)} Có thể để trống (mỗi câu có ${MIN_ANSWERS} đến ${MAX_ANSWERS} đáp án, điền liền nhau từ A).`,
});

const guides: Record<TemplateKind, TemplateGuide> = {
  'catalog-move': {
    sheet: 'Mẫu chuyển danh mục',
    columns: [
      {
        kind: 'text',
        example: '12',
        required: false,
        content: 'Mã của trường trong danh mục hiện tại (cột "Mã trường" của tệp "Tải danh mục hiện tại theo mẫu").',
        allowed: 'Số. Có thể để trống: khi đó trường cũ được tìm theo tên cũ (và đơn vị cũ). Trống cả hai: một trường mới, hoặc trường đã có cùng tên ở đơn vị mới.',
      },
      {
        kind: 'text',
        example: 'Trường Tiểu học Kim Đồng',
        required: false,
        content: 'Tên trường trong danh mục hiện tại (trước khi chuyển).',
        allowed: 'Không phân biệt chữ hoa, dấu và cách bỏ dấu ("Hoa" tìm thấy "Hòa"); một tên chỉ khớp khi viết khác phải được xác nhận trước khi lưu.',
      },
      {
        kind: 'text',
        example: 'Thành phố An Hoà',
        required: false,
        content: 'Đơn vị (quận/huyện) hiện tại của trường, khi có hai trường cùng tên.',
        allowed: 'Tên một đơn vị của danh mục hiện tại. Có thể để trống.',
      },
      {
        kind: 'text',
        example: 'Phường Kim Đồng',
        required: true,
        content: 'Đơn vị của trường theo bản đồ mới (xã, phường hoặc quận, huyện).',
        allowed: `${upTo(catalogLimits.districtName)} Đơn vị chưa có trong danh mục sẽ được thêm.`,
      },
      {
        kind: 'text',
        example: 'Trường Tiểu học Kim Đồng',
        required: true,
        content: 'Tên trường theo danh sách mới.',
        allowed: `${upTo(catalogLimits.schoolName)} Tên khác tên cũ: trường được đổi tên. Hai dòng cùng đơn vị mới và cùng tên mới: các trường cũ được sáp nhập làm một.`,
      },
      {
        kind: 'text',
        example: 'Tỉnh Hà Nam',
        required: false,
        content: 'Tỉnh cũ (trước khi sáp nhập tỉnh) của đơn vị mới.',
        allowed: 'Chữ, tối đa 120 ký tự. Có thể để trống. Một đơn vị chỉ thuộc một tỉnh cũ.',
      },
    ],
    notes: [
      'Tệp là toàn bộ danh sách trường của mùa thi mới: trường đang mở không có dòng nào sẽ được đóng từ mùa thi này (không bị xoá; các mùa thi trước giữ nguyên).',
      'Các mùa thi trước vẫn hiện tên trường và đơn vị như lúc đó.',
      'Nhập sau khi đã mở mùa thi mới (Mùa thi mới).',
    ],
  },
  questions: {
    sheet: 'Mẫu nhập câu hỏi',
    columns: [
      {
        kind: 'text',
        example: 'Nhân vật chính của truyện tên là gì?',
        required: true,
        content: 'Nội dung câu hỏi.',
        allowed: `${upTo(QUESTION_MAX_LENGTH)} Có thể xuống dòng trong ô (Alt+Enter). Câu hỏi đã có trong ngân hàng của sách được giữ nguyên, không thêm lần nữa; hai dòng cùng một câu hỏi bị từ chối.`,
      },
      ...ANSWER_LETTERS.map(answerGuide),
      {
        kind: 'text',
        example: 'A',
        required: true,
        content: 'Chữ cái của đáp án đúng.',
        allowed: `Một trong ${ANSWER_LETTERS.join(', ')} (chữ hoa hay chữ thường), là một đáp án đã điền.`,
      },
    ],
    notes: ['Câu hỏi được nhập vào ngân hàng câu hỏi của cuốn sách đang mở: "Thêm vào ngân hàng" (bỏ qua câu đã có) hoặc "Thay cả ngân hàng bằng tệp" (chỉ khi sách chưa có bài thi).'],
  },
  schools: {
    sheet: 'Mẫu nhập trường',
    columns: [
      { kind: 'text', example: 'Thành phố An Hoà', required: true, content: 'Quận/huyện của trường.', allowed: `${upTo(catalogLimits.districtName)} Quận/huyện chưa có trong danh mục sẽ được thêm.` },
      {
        kind: 'text',
        example: 'Trường Tiểu học Kim Đồng',
        required: true,
        content: 'Tên trường.',
        allowed: `${upTo(catalogLimits.schoolName)} Trường đã có (cùng quận/huyện, cùng tên) được cập nhật địa chỉ và số học sinh; trường chưa có được thêm.`,
      },
      { kind: 'text', example: 'Số 2 phố Kim Đồng, phường Quang Trung, thành phố An Hoà', required: false, content: 'Địa chỉ của trường.', allowed: `${upTo(catalogLimits.address)} Có thể để trống.` },
      {
        kind: 'number',
        example: 1430,
        required: true,
        content: 'Số học sinh của trường.',
        allowed: `Số nguyên từ 0 đến ${count(catalogLimits.pupilCount)} (1430, 1.430 hoặc 1,430 đều được).`,
      },
    ],
    notes: ['Mỗi trường một dòng; một trường không được có hai dòng.'],
  },
  'class-teachers': {
    sheet: 'Mẫu nhập giáo viên',
    columns: [
      { kind: 'text', example: 'Thành phố An Hoà', required: true, content: 'Quận/huyện của trường.', allowed: DISTRICT_IN_CATALOGUE },
      { kind: 'text', example: 'Trường Tiểu học Kim Đồng', required: true, content: 'Trường của lớp.', allowed: SCHOOL_IN_CATALOGUE },
      { kind: 'text', example: '3A', required: true, content: 'Lớp mà giáo viên chủ nhiệm.', allowed: 'Một lớp đã có trong danh mục lớp ("3a", "Lớp 3A" đều là 3A).' },
      {
        kind: 'text',
        example: 'Nguyễn Thị Lan',
        required: true,
        content: 'Họ và tên giáo viên chủ nhiệm của lớp ở trường đó.',
        allowed: `${upTo(catalogLimits.teacherName)} Thay giáo viên đã có của lớp.`,
      },
    ],
    notes: ['Mỗi lớp của một trường một dòng.'],
  },
  'school-admins': {
    sheet: 'Mẫu nhập quản trị trường',
    columns: [
      {
        kind: 'text',
        example: '0912345678',
        required: true,
        content: 'Số di động để đăng nhập; tài khoản mới nhận liên kết đặt mật khẩu qua SMS.',
        allowed: '10 chữ số, bắt đầu bằng 03, 05, 07, 08 hoặc 09. Không được là số của một phụ huynh hay của ban tổ chức; không trùng trong tệp.',
      },
      { kind: 'text', example: 'Trần Văn Bình', required: true, content: 'Họ và tên người quản trị.', allowed: upTo(120) },
      { kind: 'text', example: 'Thành phố An Hoà', required: true, content: 'Quận/huyện của trường.', allowed: DISTRICT_IN_CATALOGUE },
      { kind: 'text', example: 'Trường Tiểu học Kim Đồng', required: true, content: 'Trường mà người này quản trị.', allowed: SCHOOL_IN_CATALOGUE },
    ],
    notes: ['Một số điện thoại đã là quản trị trường thì tài khoản đó được cập nhật tên và trường.'],
  },
  viewers: {
    sheet: 'Mẫu nhập tài khoản xem',
    columns: [
      {
        kind: 'text',
        example: '0912345679',
        required: true,
        content: 'Số di động để đăng nhập; tài khoản mới nhận liên kết đặt mật khẩu qua SMS.',
        allowed: '10 chữ số, bắt đầu bằng 03, 05, 07, 08 hoặc 09. Không được là số của một phụ huynh, quản trị trường hay ban tổ chức; không trùng trong tệp.',
      },
      { kind: 'text', example: 'Phòng Giáo dục và Đào tạo An Hoà', required: true, content: 'Họ tên người xem hoặc tên cơ quan.', allowed: upTo(120) },
      {
        kind: 'text',
        example: 'Thành phố An Hoà',
        required: false,
        content: 'Các quận/huyện mà tài khoản được xem, cách nhau bằng dấu chấm phẩy ";".',
        allowed: `Tên các quận/huyện đã có trong danh mục (không phân biệt chữ hoa, chữ thường và dấu), tối đa ${VIEWER_UNITS_MAX}. Để trống: tài khoản xem toàn tỉnh (Sở Giáo dục và Đào tạo).`,
      },
    ],
    notes: ['Một số điện thoại đã là tài khoản xem thì tài khoản đó được cập nhật tên và phạm vi xem.'],
  },
  'class-rooms': {
    sheet: 'Mẫu nhập lớp',
    columns: [
      {
        kind: 'text',
        example: 'Nhóm 2',
        required: true,
        content: 'Nhóm lớp của lớp.',
        allowed: 'Tên một nhóm lớp đã có ("Nhóm 2"), tên kèm khối ("Nhóm 2 (Lớp 3 - 4)"), một khối lớp thuộc nhóm ("3", "Lớp 3", "Khối 3") hoặc các khối của nhóm ("Lớp 3-4").',
      },
      {
        kind: 'text',
        example: '3A',
        required: true,
        content: 'Tên lớp.',
        allowed: `${upTo(catalogLimits.roomName)} Lớp đã có được giữ nguyên; một lớp đã thuộc nhóm lớp khác thì bị từ chối.`,
      },
    ],
    notes: ['Lớp là của chung mọi trường; giáo viên của từng lớp ở mỗi trường được nhập bằng mẫu giáo viên.'],
  },
};

// The long text last, so that it runs on to the right where nothing stops it (no wrapped cells).
const GUIDE_HEADINGS = ['Cột', 'Bắt buộc', 'Ví dụ', 'Nội dung', 'Giá trị được chấp nhận'];

/** A column's width in characters: its title or example, within reason. */
const widthOf = (title: string, example: CellValue) => Math.min(60, Math.max(14, title.length + 4, String(example ?? '').length + 2));

const UNIT_EXAMPLE = unitLevelLabels('district').example;

/**
 * `examples`: an example by column title drawn from the catalogue (a class group it has), in place
 * of the guide's. `level`: the current season's unit level (issue 36), which names the unit's
 * column, its example and its guide; the import reads either level's titles.
 */
export async function templateXlsx(kind: TemplateKind, examples: Record<string, CellValue> = {}, level: UnitLevel = 'district'): Promise<Buffer> {
  const say = (text: string) => relabelUnit(text, level);
  const titles = templateColumns[kind].map(say);
  const guide = {
    ...guides[kind],
    columns: guides[kind].columns.map((column, i) => ({
      ...column,
      content: say(column.content),
      allowed: say(column.allowed),
      example: examples[templateColumns[kind][i]!] ?? (column.example === UNIT_EXAMPLE ? unitLevelLabels(level).example : column.example),
    })),
    notes: guides[kind].notes.map(say),
  };
  if (guide.columns.length !== titles.length) throw new Error(`template ${kind}: ${titles.length} columns, ${guide.columns.length} described`);
  const xlsx = new XlsxBuilder();
  try {
    xlsx.sheet({
      name: guide.sheet,
      headings: [...titles],
      kinds: guide.columns.map((column) => column.kind),
      widths: titles.map((title, i) => widthOf(title, guide.columns[i]!.example)),
    });
    await xlsx.rows([guide.columns.map((column) => column.example)]);
    xlsx.sheet({ name: 'Hướng dẫn', headings: GUIDE_HEADINGS, kinds: ['text', 'text', 'text', 'text', 'text'], widths: [16, 10, 28, 75, 100] });
    await xlsx.rows([
      ...titles.map((title, i) => {
        const column = guide.columns[i]!;
        return [title, column.required ? 'Có' : 'Không', column.example === null ? null : String(column.example), column.content, column.allowed];
      }),
      ...[...guide.notes, ...COMMON_NOTES].map((note) => ['Cả tệp', null, null, note, null]),
    ]);
    return await xlsx.finish();
  } catch (error) {
    await xlsx.abandon();
    throw error;
  }
}
