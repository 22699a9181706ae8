// Hostile and big import files (issue 21), made in memory as streams where they are big: the API
// test of the import limits and `npm run bench:imports` send the same files.
import { crc32, constants, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { templateColumns } from '../../shared/schemas/admin';

const MB = 1024 * 1024;


interface Entry {
  name: string;
  /** Raw deflate data. */
  data: Buffer;
  size: number;
  crc: number;
  /** What the central directory says the uncompressed size is (a lying bomb says less). */
  declared?: number;
}

function deflated(name: string, text: string): Entry {
  const bytes = Buffer.from(text);
  return { name, data: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
}

/** A zip of already deflated entries (local headers, data, central directory). */
function zipOf(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(Math.min(entry.size, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(Math.min(entry.declared ?? entry.size, 0xffffffff), 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, entry.data);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const cellRef = (column: number, row: number) => `${String.fromCharCode(65 + column)}${row}`;
const headerRow = (titles: readonly string[]) =>
  `<row r="1">${titles.map((title, i) => `<c r="${cellRef(i, 1)}" t="inlineStr"><is><t>${title}</t></is></c>`).join('')}</row>`;
const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

/** An .xlsx whose first sheet is `sheet` (already deflated). */
function workbookWith(sheet: Entry): Buffer {
  return zipOf([
    deflated('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    deflated('_rels/.rels', `<Relationships><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    deflated('xl/workbook.xml', `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Trường" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    deflated('xl/_rels/workbook.xml.rels', `<Relationships><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    sheet,
  ]);
}

/**
 * The bomb: sheet1.xml is the schools header, then `gigabytes` GB of one repeated byte. Each MB
 * is deflated once with a full flush (no reference to what came before), so the same compressed
 * block, repeated, makes the stream: about 1 KB per MB, and no gigabyte in the test's memory.
 */
export function bomb(gigabytes: number, declared?: number): Buffer {
  const head = Buffer.from(SHEET_HEAD + headerRow(templateColumns.schools));
  const block = Buffer.alloc(MB, ' ');
  const blocks = gigabytes * 1024;
  const headData = deflateRawSync(head, { finishFlush: constants.Z_FULL_FLUSH });
  const blockData = deflateRawSync(block, { finishFlush: constants.Z_FULL_FLUSH });
  const tail = Buffer.from(SHEET_TAIL);
  const data = Buffer.concat([headData, ...Array<Buffer>(blocks).fill(blockData), deflateRawSync(tail)]);
  let crc = crc32(head);
  for (let i = 0; i < blocks; i++) crc = crc32(block, crc);
  crc = crc32(tail, crc);
  return workbookWith({ name: 'xl/worksheets/sheet1.xml', data, size: head.length + blocks * MB + tail.length, crc, declared });
}

/**
 * An .xlsx of the schools template with `rows` data rows, deflated as it is generated. The rows
 * hold only a number (every row has problems) unless `legit`: then each is a valid school.
 */
export async function manyRows(rows: number, { legit = false }: { legit?: boolean } = {}): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  let size = 0;
  const write = async (text: string) => {
    const bytes = Buffer.from(text);
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  await write(SHEET_HEAD + headerRow(templateColumns.schools));
  for (let from = 2; from <= rows + 1; from += 10_000) {
    const page: string[] = [];
    for (let r = from; r < Math.min(from + 10_000, rows + 2); r++) page.push(legit ? legitRow(r) : `<row r="${r}"><c><v>${r}</v></c></row>`);
    await write(page.join(''));
  }
  await write(SHEET_TAIL);
  deflate.end();
  await done;
  return workbookWith({ name: 'xl/worksheets/sheet1.xml', data: Buffer.concat(out), size, crc });
}

const inline = (column: number, row: number, text: string) => `<c r="${cellRef(column, row)}" t="inlineStr"><is><t>${text}</t></is></c>`;
/** A valid schools row: district, school, address, pupil count. */
const legitRow = (r: number) =>
  `<row r="${r}">${inline(0, r, `Huyện ${r % 30}`)}${inline(1, r, `Trường Tiểu học số ${r}`)}${inline(2, r, `${r} đường Lê Lợi`)}<c r="D${r}"><v>${r % 900}</v></c></row>`;

/** A schools CSV of `rows` rows (valid ones). */
export function csvOfRows(rows: number): Buffer {
  const lines = [templateColumns.schools.join(',')];
  for (let i = 1; i <= rows; i++) lines.push(`H${i % 30},T${i},,${i % 900}`);
  return Buffer.from(lines.join('\n'));
}

/** A GIFT file of at least `bytes` bytes of one-line true/false questions (200,000+ for 9.5 MB). */
export function giftOfBytes(bytes: number): { content: Buffer; questions: number } {
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const text = `Câu ${i} đúng hay sai?{T}\n\n`;
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  return { content: Buffer.from(parts.join('')), questions: parts.length };
}
