// Reads the first sheet of an .xlsx (a zip of XML files sent by strangers) row by row, with limits
// enforced WHILE inflating: the uncompressed size of each entry and of the whole file, and the
// compression ratio (a zip bomb is stopped after its first megabyte, not after its gigabyte).
// Inflation runs in zlib's thread pool as a stream; the XML is scanned chunk by chunk, so memory
// stays at one chunk plus the shared strings, and the event loop gets control between chunks.
// The caller stops the read (a row cap) by leaving its for-await loop: the stream is destroyed.
// Why not read-excel-file: it unzips the whole archive into memory and parses the whole sheet
// before answering, with no size or row limit (docs/decisions/011-files-from-strangers.md).
import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';

export interface XlsxLimits {
  /** Largest uncompressed size of one zip entry read. */
  entryBytes: number;
  /** Largest uncompressed size of all the entries read together. */
  totalBytes: number;
  /** Largest ratio uncompressed / compressed of an entry, checked once it is past `ratioGraceBytes`. */
  ratio: number;
  ratioGraceBytes: number;
}

export const DEFAULT_XLSX_LIMITS: XlsxLimits = { entryBytes: 40 * 1024 * 1024, totalBytes: 80 * 1024 * 1024, ratio: 100, ratioGraceBytes: 1024 * 1024 };

/** Columns past this one are dropped (a cell "XFD1" would otherwise make a 16,384-slot row). */
const MAX_COLUMNS = 256;
/** Excel's own limit on a cell's text is 32,767 characters; raw XML (entities) may be longer. */
const MAX_CELL_CHARS = 256 * 1024;
/** A tag or a comment longer than this is not a spreadsheet. */
const MAX_PENDING_CHARS = 1024 * 1024;

/** The file is not a readable .xlsx (broken zip, missing parts, encrypted, odd XML). */
export class XlsxUnreadableError extends Error {
  constructor(reason: string) {
    super(`unreadable xlsx: ${reason}`);
    this.name = 'XlsxUnreadableError';
  }
}

/** The file goes past a limit (size, ratio): a zip bomb or something as harmful. */
export class XlsxLimitError extends Error {
  constructor(reason: string) {
    super(`xlsx over a limit: ${reason}`);
    this.name = 'XlsxLimitError';
  }
}

export type XlsxValue = string | number | boolean | Date | null;
export interface XlsxRow {
  /** The sheet's own row number (1 = first row). */
  row: number;
  values: XlsxValue[];
}

// Zip ----------------------------------------------------------------------------------------

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  dataStart: number;
}

/** The zip's central directory (no zip64: a 10 MB upload never needs it). */
function zipEntries(bytes: Buffer): Map<string, ZipEntry> {
  const EOCD = 0x06054b50;
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new XlsxUnreadableError('no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new XlsxUnreadableError('zip64');
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw new XlsxUnreadableError('bad central directory');
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const declaredSize = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength).replace(/^\/+/, '');
    at += 46 + skip;
    if (flags & 1) throw new XlsxUnreadableError('encrypted entry');
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw new XlsxUnreadableError('bad local header');
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (dataStart + compressedSize > bytes.length) throw new XlsxUnreadableError('entry past the end');
    entries.set(name.toLowerCase(), { name, method, compressedSize, declaredSize, dataStart });
  }
  return entries;
}

/** Counts what was inflated across the entries of one file. */
class Budget {
  used = 0;
  constructor(readonly limits: XlsxLimits) {}
}

/**
 * How much XML is scanned in one go before the event loop is served. 16 KB keeps a slice to a
 * few ms (64 KB held the loop 20-35 ms on a busy machine, and exam saves of the same process
 * waited behind each slice: bench:imports).
 */
const SLICE_BYTES = 16 * 1024;

/**
 * An entry's uncompressed bytes, chunk by chunk, refused the moment a limit is passed; the
 * event loop is served after each chunk, whoever reads it.
 */
async function* inflateEntry(bytes: Buffer, entry: ZipEntry, budget: Budget): AsyncGenerator<Buffer> {
  const { limits } = budget;
  // The declared sizes are the sender's word: a lie is caught below while inflating.
  if (entry.declaredSize > limits.entryBytes) throw new XlsxLimitError(`${entry.name} declares ${entry.declaredSize} bytes`);
  const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === 0) {
    budget.used += data.length;
    if (budget.used > limits.totalBytes) throw new XlsxLimitError('whole file too large');
    for (let i = 0; i < data.length; i += SLICE_BYTES) {
      yield data.subarray(i, i + SLICE_BYTES);
      await yieldToEventLoop();
    }
    return;
  }
  if (entry.method !== 8) throw new XlsxUnreadableError(`compression method ${entry.method}`);
  const inflate = createInflateRaw({ chunkSize: SLICE_BYTES });
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += 64 * 1024) yield data.subarray(i, i + 64 * 1024);
    })(),
  );
  source.on('error', () => inflate.destroy());
  source.pipe(inflate);
  let size = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.used += chunk.length;
      if (size > limits.entryBytes) throw new XlsxLimitError(`${entry.name} over ${limits.entryBytes} bytes`);
      if (budget.used > limits.totalBytes) throw new XlsxLimitError('whole file too large');
      // bytesWritten: compressed bytes zlib has consumed so far, so the ratio is checked as it grows.
      if (size > limits.ratioGraceBytes && size > limits.ratio * Math.max(inflate.bytesWritten, 1)) {
        throw new XlsxLimitError(`${entry.name} compressed more than ${limits.ratio}:1`);
      }
      yield chunk;
      await yieldToEventLoop();
    }
  } catch (error) {
    if (error instanceof XlsxLimitError || error instanceof XlsxUnreadableError) throw error;
    throw new XlsxUnreadableError(`inflate: ${(error as Error).message}`);
  } finally {
    source.unpipe(inflate);
    source.destroy();
    inflate.destroy();
  }
}

// XML ----------------------------------------------------------------------------------------

interface XmlHandler {
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Raw text (entities not yet decoded), possibly in several pieces. */
  text(raw: string): void;
}

/**
 * A small streaming scanner for machine-written XML (tags, text, comments, declarations):
 * enough for the parts of an .xlsx, without a DOM. Element names lose their namespace prefix.
 */
class XmlScanner {
  private rest = '';
  constructor(private readonly handler: XmlHandler) {}

  push(chunk: string): void {
    const s = this.rest + chunk;
    let i = 0;
    for (;;) {
      const lt = s.indexOf('<', i);
      if (lt < 0) {
        if (i < s.length) this.handler.text(s.slice(i));
        i = s.length;
        break;
      }
      if (lt > i) this.handler.text(s.slice(i, lt));
      i = lt;
      if (s.startsWith('<![CDATA[', lt)) {
        const end = s.indexOf(']]>', lt);
        if (end < 0) break;
        this.handler.text(escapeText(s.slice(lt + 9, end)));
        i = end + 3;
        continue;
      }
      if (s.startsWith('<!--', lt)) {
        const end = s.indexOf('-->', lt);
        if (end < 0) break;
        i = end + 3;
        continue;
      }
      const gt = s.indexOf('>', lt);
      if (gt < 0) break;
      i = gt + 1;
      const second = s[lt + 1];
      if (second === '?' || second === '!') continue;
      if (second === '/') {
        this.handler.close(localName(s.slice(lt + 2, gt).trim()));
        continue;
      }
      const selfClosing = s[gt - 1] === '/';
      const tag = s.slice(lt + 1, selfClosing ? gt - 1 : gt);
      const space = tag.search(/\s/);
      const name = localName(space < 0 ? tag : tag.slice(0, space));
      const attrs = space < 0 ? '' : tag.slice(space);
      this.handler.open(name, attrs, selfClosing);
      if (selfClosing) this.handler.close(name);
    }
    this.rest = s.slice(i);
    if (this.rest.length > MAX_PENDING_CHARS) throw new XlsxUnreadableError('tag too long');
  }
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** XML entities and Excel's own _xHHHH_ escapes (control characters) decoded. */
export function decodeXmlText(raw: string): string {
  return raw
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] !== '#') return ENTITIES[code] ?? whole;
      const point = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
    })
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const attrPatterns = new Map<string, RegExp>();
function attr(attrs: string, name: string): string | undefined {
  let pattern = attrPatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|\\s)${name.replace(':', '\\:')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrPatterns.set(name, pattern);
  }
  const match = pattern.exec(attrs);
  return match ? decodeXmlText(match[1] ?? match[2] ?? '') : undefined;
}

/** Scans a whole entry through `handler` (small parts and the shared strings). */
async function scanEntry(bytes: Buffer, entry: ZipEntry, budget: Budget, handler: XmlHandler): Promise<void> {
  const scanner = new XmlScanner(handler);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of inflateEntry(bytes, entry, budget)) scanner.push(decoder.decode(chunk, { stream: true }));
  scanner.push(decoder.decode());
}

/** Collects text inside the elements named `inside` (skipping phonetic runs), capped. */
class TextCollector {
  private parts: string[] = [];
  private length = 0;
  add(raw: string) {
    this.length += raw.length;
    if (this.length > MAX_CELL_CHARS) throw new XlsxUnreadableError('cell too long');
    this.parts.push(raw);
  }
  take(): string {
    const text = decodeXmlText(this.parts.join(''));
    this.parts = [];
    this.length = 0;
    return text;
  }
}

// Workbook parts -----------------------------------------------------------------------------

/** Relationship targets by id and by type (the last path segment of the type URI). */
async function readRels(bytes: Buffer, entries: Map<string, ZipEntry>, path: string, budget: Budget) {
  const byId = new Map<string, string>();
  const byType = new Map<string, string>();
  const entry = entries.get(path.toLowerCase());
  if (!entry) return { byId, byType };
  const base = path.replace(/_rels\/[^/]*$/, '');
  await scanEntry(bytes, entry, budget, {
    open(name, attrs) {
      if (name !== 'Relationship') return;
      const target = attr(attrs, 'Target');
      if (!target || attr(attrs, 'TargetMode') === 'External') return;
      const resolved = resolvePath(base, target);
      const id = attr(attrs, 'Id');
      if (id) byId.set(id, resolved);
      const type = (attr(attrs, 'Type') ?? '').split('/').pop();
      if (type && !byType.has(type)) byType.set(type, resolved);
    },
    close() {},
    text() {},
  });
  return { byId, byType };
}

function resolvePath(base: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : base + target).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** True when a number format shows a date or a time (quoted text, colours and locales aside). */
export function isDateFormatCode(code: string): boolean {
  const bare = code
    .split(';')[0]!
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .toLowerCase();
  return /[dmyhs]/.test(bare) && !/[0#?]/.test(bare);
}

/** Per style index (the `s` of a cell): whether its number format is a date. */
async function readDateStyles(bytes: Buffer, entry: ZipEntry | undefined, budget: Budget): Promise<boolean[]> {
  if (!entry) return [];
  const custom = new Map<number, string>();
  const styles: number[] = [];
  let inCellXfs = false;
  await scanEntry(bytes, entry, budget, {
    open(name, attrs) {
      if (name === 'numFmt') custom.set(Number(attr(attrs, 'numFmtId')), attr(attrs, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) styles.push(Number(attr(attrs, 'numFmtId') ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
    text() {},
  });
  return styles.map((id) => (custom.has(id) ? isDateFormatCode(custom.get(id)!) : BUILT_IN_DATE_FORMATS.has(id)));
}

async function readSharedStrings(bytes: Buffer, entry: ZipEntry | undefined, budget: Budget): Promise<string[]> {
  if (!entry) return [];
  const strings: string[] = [];
  const text = new TextCollector();
  let inItem = false;
  let inT = false;
  let phonetic = 0;
  await scanEntry(bytes, entry, budget, {
    open(name, _attrs, selfClosing) {
      if (name === 'si') inItem = true;
      else if (name === 'rPh') phonetic += selfClosing ? 0 : 1;
      else if (name === 't' && inItem && phonetic === 0) inT = !selfClosing;
    },
    close(name) {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 'si') {
        strings.push(text.take());
        inItem = false;
      }
    },
    text(raw) {
      if (inT) text.add(raw);
    },
  });
  return strings;
}

/** Excel's serial day (1900 or 1904 system) as a UTC date. */
function serialDate(serial: number, epoch1904: boolean): Date {
  return new Date(Math.round((serial - (epoch1904 ? 24107 : 25569)) * 86_400_000));
}

function columnIndex(ref: string | undefined): number | undefined {
  const letters = ref ? /^[A-Z]+/i.exec(ref)?.[0] : undefined;
  if (!letters) return undefined;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/**
 * The first sheet's rows, in order, as they stream: cell values as text, numbers, booleans or
 * dates (numbers in a date format), null when empty. Throws XlsxUnreadableError or XlsxLimitError.
 */
export async function* readFirstSheet(input: Buffer, limits: XlsxLimits = DEFAULT_XLSX_LIMITS): AsyncGenerator<XlsxRow> {
  const entries = zipEntries(input);
  const budget = new Budget(limits);
  const rootRels = await readRels(input, entries, '_rels/.rels', budget);
  const workbookPath = rootRels.byType.get('officeDocument') ?? 'xl/workbook.xml';
  const workbook = entries.get(workbookPath.toLowerCase());
  if (!workbook) throw new XlsxUnreadableError('no workbook');
  const relsPath = workbookPath.replace(/([^/]*)$/, '_rels/$1.rels');
  const rels = await readRels(input, entries, relsPath, budget);

  let firstSheetId: string | undefined;
  let epoch1904 = false;
  await scanEntry(input, workbook, budget, {
    open(name, attrs) {
      if (name === 'sheet' && firstSheetId === undefined) firstSheetId = attr(attrs, 'r:id') ?? attr(attrs, 'id') ?? '';
      else if (name === 'workbookPr') epoch1904 = ['1', 'true'].includes(attr(attrs, 'date1904') ?? '');
    },
    close() {},
    text() {},
  });
  const sheetPath = (firstSheetId && rels.byId.get(firstSheetId)) ?? 'xl/worksheets/sheet1.xml';
  const sheet = entries.get(sheetPath.toLowerCase());
  if (!sheet) throw new XlsxUnreadableError('no sheet');
  const dateStyles = await readDateStyles(input, entries.get((rels.byType.get('styles') ?? 'xl/styles.xml').toLowerCase()), budget);
  const shared = await readSharedStrings(input, entries.get((rels.byType.get('sharedStrings') ?? 'xl/sharedStrings.xml').toLowerCase()), budget);

  // The sheet itself: rows are handed out as soon as they are complete.
  const ready: XlsxRow[] = [];
  const text = new TextCollector();
  let current: XlsxRow | undefined;
  let lastRow = 0;
  let cell: { column: number; type: string; style: number; value?: string; inline?: string } | undefined;
  let nextColumn = 0;
  let capture: 'v' | 't' | undefined;
  let inInline = false;
  let phonetic = 0;

  const cellValue = (c: NonNullable<typeof cell>): XlsxValue => {
    const raw = c.value;
    switch (c.type) {
      case 's':
        return raw === undefined ? null : (shared[Number(raw)] ?? null);
      case 'inlineStr':
        return c.inline ?? raw ?? null;
      case 'str':
        return raw ?? null;
      case 'b':
        return raw === undefined ? null : raw.trim() === '1' || raw.trim() === 'true';
      case 'e':
        return null;
      case 'd': {
        const date = raw ? new Date(raw) : undefined;
        return date && !Number.isNaN(date.getTime()) ? date : (raw ?? null);
      }
      default: {
        if (raw === undefined || raw.trim() === '') return null;
        const number = Number(raw);
        if (!Number.isFinite(number)) return raw;
        return dateStyles[c.style] ? serialDate(number, epoch1904) : number;
      }
    }
  };

  const scanner = new XmlScanner({
    open(name, attrs, selfClosing) {
      switch (name) {
        case 'row': {
          const number = Number(attr(attrs, 'r'));
          lastRow = Number.isInteger(number) && number > lastRow ? number : lastRow + 1;
          current = { row: lastRow, values: [] };
          nextColumn = 0;
          break;
        }
        case 'c': {
          const column = columnIndex(attr(attrs, 'r')) ?? nextColumn;
          nextColumn = column + 1;
          cell = { column, type: attr(attrs, 't') ?? 'n', style: Number(attr(attrs, 's') ?? 0) };
          break;
        }
        case 'v':
          if (cell && !selfClosing) capture = 'v';
          break;
        case 'is':
          inInline = !selfClosing;
          break;
        case 'rPh':
          if (!selfClosing) phonetic++;
          break;
        case 't':
          if (cell && inInline && phonetic === 0 && !selfClosing) capture = 't';
          break;
      }
    },
    close(name) {
      switch (name) {
        case 'v':
          if (cell && capture === 'v') cell.value = text.take();
          capture = undefined;
          break;
        case 't':
          if (cell && capture === 't') cell.inline = (cell.inline ?? '') + text.take();
          capture = undefined;
          break;
        case 'rPh':
          phonetic = Math.max(0, phonetic - 1);
          break;
        case 'is':
          inInline = false;
          break;
        case 'c':
          if (cell && current && cell.column < MAX_COLUMNS) current.values[cell.column] = cellValue(cell);
          cell = undefined;
          break;
        case 'row':
          if (current) ready.push(current);
          current = undefined;
          break;
      }
    },
    text(raw) {
      if (capture) text.add(raw);
    },
  });

  const decoder = new TextDecoder('utf-8');
  for await (const chunk of inflateEntry(input, sheet, budget)) {
    scanner.push(decoder.decode(chunk, { stream: true }));
    yield* ready.splice(0);
  }
  scanner.push(decoder.decode());
  yield* ready.splice(0);
}
