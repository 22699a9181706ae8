// Writes an .xlsx off the main thread, as a stream: each page of rows becomes sheet XML at once and
// goes through fflate's streaming zip (ZipDeflate), so the worker holds the compressed file and
// one page, never the whole workbook (write-excel-file built it all in memory: about 0.9 GB for
// the 200,000-row contestants export). Text cells are inline strings (no shared-strings table to
// keep) and always typed as text, so a value starting with "=" is never a formula. Plain
// JavaScript, so that it loads the same under tsx, vitest and production. Messages (xlsx.ts):
// {sheet} to start a sheet, {rows, bold} of plain values (answered {written}), {end}; answers
// {bytes} (transferred) or {error}.
import { parentPort } from 'node:worker_threads';
import { Zip, ZipDeflate, strToU8 } from 'fflate';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Excel's limit on a cell's text. */
const MAX_CELL_CHARS = 32_767;
// Style indexes of styles.xml below: 0 plain, 1 heading text (bold, wrapped), 2 heading number (bold).
const HEADING_TEXT = 1;
const HEADING_NUMBER = 2;

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

function cellXml(value, kind, ref, style) {
  if (value === null || value === undefined || value === '') return '';
  const s = style ? ` s="${style}"` : '';
  if (kind === 'number' && typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${s}><v>${value}</v></c>`;
  if (kind === 'number' && typeof value !== 'number' && value !== '' && Number.isFinite(Number(value))) return `<c r="${ref}"${s}><v>${Number(value)}</v></c>`;
  const text = escapeXml(String(value).slice(0, MAX_CELL_CHARS));
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
}

function rowXml(values, kinds, heading) {
  const number = ++current.rowNumber;
  const cells = values
    .map((value, index) => {
      const kind = heading ? (typeof value === 'number' ? 'number' : 'text') : kinds[index];
      const style = heading ? (kind === 'number' ? HEADING_NUMBER : HEADING_TEXT) : 0;
      return cellXml(value, kind, `${columnName(index)}${number}`, style);
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
  current.file.push(strToU8('</sheetData></worksheet>'), true);
  current = undefined;
}

function startSheet({ name, headings, kinds, widths }) {
  closeSheet();
  const index = sheets.length + 1;
  // Sheet names: at most 31 characters, none of : \ / ? * [ ].
  sheets.push(name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31));
  const file = new ZipDeflate(`xl/worksheets/sheet${index}.xml`, { level: 6 });
  zip.add(file);
  current = { file, kinds, rowNumber: 0 };
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
  const sheetList = sheets.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
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
  addEntry('xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheetList}</sheets></workbook>`);
  addEntry(
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheetRels}` +
      `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
  );
  addEntry(
    'xl/styles.xml',
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment wrapText="1" vertical="top"/></xf>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
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
