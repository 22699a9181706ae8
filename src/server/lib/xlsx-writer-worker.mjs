// Writes an .xlsx off the main thread, as a stream: each page of rows becomes sheet XML at once and
// goes through fflate's streaming zip (ZipDeflate), so the worker holds the compressed file and
// one page, never the whole workbook (write-excel-file built it all in memory: about 0.9 GB for
// the 200,000-row contestants export). Text cells are inline strings (no shared-strings table to
// keep) and always typed as text, so a value starting with "=" is never a formula. Plain
// JavaScript, so that it loads the same under tsx, vitest and production. Messages (xlsx-writer.ts):
// {sheet} to start a sheet (kinds per column: text, number, money, score, date), {rows, bold} of plain values (answered {written}), {end}; answers
// {bytes} (transferred) or {error}.
import { parentPort } from 'node:worker_threads';
import { Zip, ZipDeflate, strToU8 } from 'fflate';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Excel's limit on a cell's text. */
const MAX_CELL_CHARS = 32_767;
// Column kinds and their number formats (styles.xml below): each kind has two cell styles, plain
// (index 2k) and bold (2k + 1; headings and totals). Money shows '300.000 đ' in a Vietnamese Excel
// and '300,000 đ' in an English one: the thousands separator and the decimal comma of a score are
// the viewer's locale, the cells hold plain numbers. Dates are real date cells.
const KINDS = ['text', 'number', 'money', 'score', 'date'];
const NUM_FMTS = { money: [164, '#,##0 "đ"'], score: [165, '0.0'], date: [166, 'dd/mm/yyyy hh:mm'] };
/** Vietnam keeps UTC+7 all year (no daylight saving): dates are written in Asia/Ho_Chi_Minh time. */
const VIETNAM_OFFSET_MS = 7 * 3600_000;
const styleOf = (kind, bold) => 2 * Math.max(0, KINDS.indexOf(kind)) + (bold ? 1 : 0);

/** An instant (ISO text, a Date or epoch ms) as an Excel date serial in Vietnamese local time. */
function excelDate(value) {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? (ms + VIETNAM_OFFSET_MS) / 86_400_000 + 25_569 : undefined;
}

const chunks = [];
let failure;
const zip = new Zip((error, chunk) => {
  if (error) failure = error;
  else chunks.push(chunk);
});
const sheets = [];
/** The sheet being written: its zip entry, column kinds and next row number. */
let current;

function columnName(index) {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// Characters XML 1.0 cannot carry (control characters, lone surrogates, U+FFFE/U+FFFF) are dropped.
// eslint-disable-next-line no-control-regex -- matching them is the point
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeXml = (text) => text.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function cellXml(value, kind, ref, bold) {
  if (value === null || value === undefined || value === '') return '';
  const style = styleOf(kind, bold);
  const s = style ? ` s="${style}"` : '';
  if (kind === 'date') {
    const serial = excelDate(value);
    if (serial !== undefined) return `<c r="${ref}"${s}><v>${serial}</v></c>`;
  } else if (kind !== 'text' && Number.isFinite(typeof value === 'number' ? value : Number(value))) return `<c r="${ref}"${s}><v>${Number(value)}</v></c>`;
  const textStyle = styleOf('text', bold);
  const ts = textStyle ? ` s="${textStyle}"` : '';
  const text = escapeXml(String(value).slice(0, MAX_CELL_CHARS));
  return `<c r="${ref}"${ts} t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
}

function rowXml(values, kinds, heading) {
  const number = ++current.rowNumber;
  const cells = values
    .map((value, index) => {
      const kind = typeof value === 'string' && heading ? 'text' : kinds[index];
      return cellXml(value, kind, `${columnName(index)}${number}`, heading);
    })
    .join('');
  return `<row r="${number}">${cells}</row>`;
}

function addEntry(name, xml) {
  const file = new ZipDeflate(name, { level: 6 });
  zip.add(file);
  file.push(strToU8(xml), true);
}

function closeSheet() {
  if (!current) return;
  // A filter over the heading row and every row below it (Excel also names it _FilterDatabase).
  const last = Math.max(current.rowNumber, 2);
  sheets[sheets.length - 1].filter = `$A$1:$${current.lastColumn}$${last}`;
  current.file.push(strToU8(`</sheetData><autoFilter ref="A1:${current.lastColumn}${last}"/></worksheet>`), true);
  current = undefined;
}

function startSheet({ name, headings, kinds, widths }) {
  closeSheet();
  const index = sheets.length + 1;
  // Sheet names: at most 31 characters, none of : \ / ? * [ ].
  sheets.push({ name: name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) });
  const file = new ZipDeflate(`xl/worksheets/sheet${index}.xml`, { level: 6 });
  zip.add(file);
  current = { file, kinds, rowNumber: 0, lastColumn: columnName(Math.max(headings.length, 1) - 1) };
  const cols = widths.map((width, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`).join('');
  file.push(
    strToU8(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        // The heading row stays in view while scrolling.
        `<sheetViews><sheetView workbookViewId="0"${index === 1 ? ' tabSelected="1"' : ''}><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
        `<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>${rowXml(headings, kinds, true)}`,
    ),
  );
}

function finishWorkbook() {
  closeSheet();
  const sheetList = sheets.map(({ name }, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const filters = sheets
    .map(({ name, filter }, i) => `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">'${escapeXml(name.replace(/'/g, "''"))}'!${filter}</definedName>`)
    .join('');
  const sheetRels = sheets
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
    .join('');
  const sheetTypes = sheets
    .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
    .join('');
  addEntry(
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      `${sheetTypes}</Types>`,
  );
  addEntry(
    '_rels/.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  addEntry('xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheetList}</sheets>${filters ? `<definedNames>${filters}</definedNames>` : ''}</workbook>`);
  addEntry(
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheetRels}` +
      `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
  );
  addEntry(
    'xl/styles.xml',
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      `<numFmts count="3">${Object.values(NUM_FMTS).map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`).join('')}</numFmts>` +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${KINDS.length * 2}">${KINDS.map((kind) => {
        const format = NUM_FMTS[kind] ? ` numFmtId="${NUM_FMTS[kind][0]}" applyNumberFormat="1"` : ' numFmtId="0"';
        const plain = `<xf${format} fontId="0" fillId="0" borderId="0" xfId="0"/>`;
        const bold =
          kind === 'text'
            ? '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment wrapText="1" vertical="top"/></xf>'
            : `<xf${format} fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>`;
        return plain + bold;
      }).join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
  );
  zip.end();
  if (failure) throw failure;
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  chunks.length = 0;
  return bytes;
}

parentPort.on('message', (message) => {
  try {
    if (failure) throw failure;
    if (message.sheet) startSheet(message.sheet);
    else if (message.rows) {
      const bold = new Set(message.bold);
      const xml = message.rows.map((row, at) => rowXml(row, current.kinds, bold.has(at))).join('');
      current.file.push(strToU8(xml));
      parentPort.postMessage({ written: true });
    } else if (message.end) {
      const bytes = finishWorkbook();
      parentPort.postMessage({ bytes: bytes.buffer }, [bytes.buffer]);
    }
  } catch (error) {
    failure ??= error;
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
