// Builds an .xlsx off the main thread: write-excel-file makes the whole workbook in one
// synchronous call (about 35 s for 200,000 rows × 15 columns), which on the app's event loop would
// stall every request of the process. Plain JavaScript, so that it loads the same under tsx,
// vitest and production. Messages (xlsx.ts): {sheet} to start a sheet, {rows, bold} of plain values,
// {end}; answers {bytes} (transferred) or {error}.
import { parentPort } from 'node:worker_threads';
import writeExcelFile from 'write-excel-file/node';

const sheets = [];

function cell(value, kind) {
  if (value === null || value === undefined || value === '') return null;
  if (kind === 'heading') return typeof value === 'number' ? { value, type: Number, fontWeight: 'bold' } : { value: String(value), fontWeight: 'bold', wrap: true };
  // Text cells are written as text, so a value starting with "=" is never a formula.
  return kind === 'number' ? { value: Number(value), type: Number } : { value: String(value), type: String };
}

parentPort.on('message', async (message) => {
  try {
    if (message.sheet) {
      const { name, headings, kinds, widths } = message.sheet;
      sheets.push({ sheet: name, kinds, columns: widths.map((width) => ({ width })), stickyRowsCount: 1, data: [headings.map((title) => cell(title, 'heading'))] });
    } else if (message.rows) {
      const sheet = sheets[sheets.length - 1];
      const bold = new Set(message.bold);
      message.rows.forEach((row, at) => sheet.data.push(row.map((value, index) => cell(value, bold.has(at) ? 'heading' : sheet.kinds[index]))));
    } else if (message.end) {
      const buffer = await writeExcelFile(sheets.map(({ kinds: _kinds, ...sheet }) => sheet)).toBuffer();
      const bytes = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
      parentPort.postMessage({ bytes }, [bytes]);
    }
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
