// The streaming .xlsx reader: what Excel, LibreOffice and other writers put in a sheet (shared and
// inline strings, numbers, dates by their format, booleans, entities, namespace prefixes, phonetic
// runs), and the limits that stop a zip bomb while it inflates.
import { describe, expect, it } from 'vitest';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { readFirstSheet, isDateFormatCode, XlsxLimitError, XlsxUnreadableError, type XlsxLimits, type XlsxRow } from './xlsx-reader';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function book(sheet: string, parts: { shared?: string[]; styles?: string; sheetName?: string; extra?: Zippable } = {}): Buffer {
  const sharedXml = parts.shared
    ? `<sst xmlns="${MAIN}" count="${parts.shared.length}">${parts.shared.map((s) => `<si>${s}</si>`).join('')}</sst>`
    : undefined;
  const files: Zippable = {
    '[Content_Types].xml': strToU8('<Types/>'),
    '_rels/.rels': strToU8(`<Relationships><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="A" sheetId="1" r:id="rId7"/><sheet name="B" sheetId="2" r:id="rId8"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships><Relationship Id="rId8" Type="${REL}/worksheet" Target="worksheets/other.xml"/><Relationship Id="rId7" Type="${REL}/worksheet" Target="/xl/worksheets/${parts.sheetName ?? 'first.xml'}"/>` +
        `<Relationship Id="rId9" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId10" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ),
    [`xl/worksheets/${parts.sheetName ?? 'first.xml'}`]: strToU8(`<worksheet xmlns="${MAIN}"><sheetData>${sheet}</sheetData></worksheet>`),
    'xl/worksheets/other.xml': strToU8(`<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>other</t></is></c></row></sheetData></worksheet>`),
    ...(sharedXml ? { 'xl/sharedStrings.xml': strToU8(sharedXml) } : {}),
    ...(parts.styles ? { 'xl/styles.xml': strToU8(parts.styles) } : {}),
    ...parts.extra,
  };
  return Buffer.from(zipSync(files));
}

async function rows(bytes: Buffer, limits?: XlsxLimits): Promise<XlsxRow[]> {
  const out: XlsxRow[] = [];
  for await (const row of readFirstSheet(bytes, limits)) out.push(row);
  return out;
}

/** The zip with `name`'s uncompressed size in the central directory replaced (a lying bomb). */
function declare(bytes: Buffer, name: string, size: number): Buffer {
  const at = bytes.lastIndexOf(Buffer.from(name)) - 46;
  expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
  bytes.writeUInt32LE(size, at + 24);
  return bytes;
}

const small: XlsxLimits = { entryBytes: 2 * 1024 * 1024, totalBytes: 3 * 1024 * 1024, ratio: 100, ratioGraceBytes: 256 * 1024 };

describe('readFirstSheet', { timeout: 20_000 }, () => {
  it('reads shared and inline strings, numbers, booleans, dates by their format and entities, in sheet order', async () => {
    const styles =
      `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy;@"/></numFmts>` +
      '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="4"/></cellXfs></styleSheet>';
    const sheet =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t xml:space="preserve"> A &amp; B </t></is></c></row>' +
      '<row r="3"><c r="A3"><v>42</v></c><c r="B3" s="1"><v>45658</v></c><c r="C3" s="2"><v>45659</v></c><c r="D3" s="3"><v>1234.5</v></c></row>' +
      '<row r="4"><c r="A4" t="b"><v>1</v></c><c r="B4" t="str"><f>A1&amp;"x"</f><v>Trường&#x20;A</v></c><c r="C4" t="e"><v>#N/A</v></c><c r="E4"/></row>' +
      '<row><c t="inlineStr"><is><r><t>Lê </t></r><r><rPr><b/></rPr><t>Lợi</t></r></is></c><c><v>7</v></c></row>';
    const shared = ['<t>Quận/Huyện</t>', '<r><t>Tr</t></r><r><t>ường</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh>'];
    const read = await rows(book(sheet, { shared, styles }));
    expect(read.map((r) => r.row)).toEqual([1, 3, 4, 5]);
    expect(read[0]!.values).toEqual(['Quận/Huyện', 'Trường', undefined, ' A & B ']);
    expect(read[1]!.values).toEqual([42, new Date('2025-01-01T00:00:00Z'), new Date('2025-01-02T00:00:00Z'), 1234.5]);
    expect(read[2]!.values).toEqual([true, 'Trường A', null, undefined, null]);
    expect(read[3]!.values).toEqual(['Lê Lợi', 7]);
  });

  it('reads a sheet whose elements carry a namespace prefix, and comments and CDATA', async () => {
    const bytes = book('', {
      extra: {
        'xl/worksheets/first.xml': strToU8(
          `<?xml version="1.0"?><x:worksheet xmlns:x="${MAIN}"><!-- a <row> in a comment --><x:sheetData><x:row r="1"><x:c r="B1" t="inlineStr"><x:is><x:t><![CDATA[a < b & c]]></x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`,
        ),
      },
    });
    expect(await rows(bytes)).toEqual([{ row: 1, values: [undefined, 'a < b & c'] }]);
  });

  it('tells date formats from number formats', () => {
    for (const code of ['dd/mm/yyyy', 'd-mmm-yy', '[$-42A]dd mmmm yyyy;@', 'h:mm:ss', 'yyyy"年"m"月"']) expect(isDateFormatCode(code)).toBe(true);
    for (const code of ['0.00', '#,##0', '"Ngày" 0', '[Red]0;[Blue]-0', '@', 'General']) expect(isDateFormatCode(code)).toBe(false);
  });

  it('stops a zip bomb by its compression ratio after its first part, even when it lies about its size', async () => {
    // 16 MB of one byte compresses about 1000:1; the central directory is made to say 1 KB.
    const bytes = declare(book('<row r="1"><c r="A1"><v>1</v></c></row>' + ' '.repeat(16 * 1024 * 1024)), 'xl/worksheets/first.xml', 1024);
    await expect(rows(bytes, { ...small, entryBytes: 1024 * 1024 * 1024, totalBytes: 1024 * 1024 * 1024 })).rejects.toThrow(/compressed more than 100:1/);
  });

  it('refuses an entry past its size, whatever its ratio, and an entry that declares too much', async () => {
    const random = Array.from({ length: 40_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${(i * 7919) % 100_003}</v></c></row>`).join('');
    await expect(rows(book(random), { ...small, entryBytes: 512 * 1024 })).rejects.toBeInstanceOf(XlsxLimitError);
    await expect(rows(book(random), { ...small, totalBytes: 512 * 1024 })).rejects.toBeInstanceOf(XlsxLimitError);
    // The central directory says sheet first.xml is 4 GB: refused before inflating anything.
    const bytes = declare(book('<row r="1"><c r="A1"><v>1</v></c></row>'), 'xl/worksheets/first.xml', 0xfffffffe);
    await expect(rows(bytes)).rejects.toThrow(/declares/);
  });

  it('hands rows out as they stream: a reader that stops early never inflates the rest', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>Dòng ${i + 1}</t></is></c></row>`).join('');
    const bytes = book(many);
    let seen = 0;
    for await (const row of readFirstSheet(bytes)) {
      seen = row.row;
      if (seen === 10) break;
    }
    expect(seen).toBe(10);
  });

  it('calls anything else unreadable: not a zip, no workbook, a cell far past Excel’s size, an endless tag', async () => {
    await expect(rows(Buffer.from('PK\u0003\u0004 not really a zip'))).rejects.toBeInstanceOf(XlsxUnreadableError);
    await expect(rows(Buffer.from(zipSync({ 'a.txt': strToU8('x') })))).rejects.toBeInstanceOf(XlsxUnreadableError);
    await expect(rows(book(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'x'.repeat(300 * 1024)}</t></is></c></row>`))).rejects.toBeInstanceOf(XlsxUnreadableError);
    await expect(rows(book(`<row r="1" ${'a'.repeat(1536 * 1024)}`), { ...small, ratio: 1e9 })).rejects.toBeInstanceOf(XlsxUnreadableError);
  });
});
