// Keeps only some glyphs of a TrueType font, without renumbering them: the glyphs left out become
// empty (zero-length in loca), so glyph ids, widths and the character map written once in the
// certificate template stay valid, and each certificate embeds the outlines it draws and no more.
// Composite glyphs (a Vietnamese letter built from a base and its marks) keep their components.
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

export interface ParsedTrueType {
  sfntVersion: number;
  tables: Map<string, Buffer>;
  /** Start and end of each glyph in glyf. */
  starts: Uint32Array;
  ends: Uint32Array;
  glyf: Buffer;
  /** Glyph ids a composite glyph draws (empty for simple glyphs). */
  components: number[][];
}

export function parseTrueType(font: Buffer): ParsedTrueType {
  const sfntVersion = font.readUInt32BE(0);
  const count = font.readUInt16BE(4);
  const tables = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    const offset = font.readUInt32BE(record + 8);
    tables.set(font.toString('latin1', record, record + 4), font.subarray(offset, offset + font.readUInt32BE(record + 12)));
  }
  const head = tables.get('head')!;
  const loca = tables.get('loca')!;
  const glyf = tables.get('glyf')!;
  const longOffsets = head.readInt16BE(50) === 1;
  const glyphCount = tables.get('maxp')!.readUInt16BE(4);
  const offsetAt = (index: number) => (longOffsets ? loca.readUInt32BE(index * 4) : loca.readUInt16BE(index * 2) * 2);
  const starts = new Uint32Array(glyphCount);
  const ends = new Uint32Array(glyphCount);
  const components: number[][] = [];
  for (let gid = 0; gid < glyphCount; gid++) {
    starts[gid] = offsetAt(gid);
    ends[gid] = offsetAt(gid + 1);
    const parts: number[] = [];
    if (ends[gid]! > starts[gid]! && glyf.readInt16BE(starts[gid]!) < 0) {
      let at = starts[gid]! + 10;
      let flags: number;
      do {
        flags = glyf.readUInt16BE(at);
        parts.push(glyf.readUInt16BE(at + 2));
        at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
        if (flags & WE_HAVE_A_SCALE) at += 2;
        else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
        else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
      } while (flags & MORE_COMPONENTS);
    }
    components.push(parts);
  }
  return { sfntVersion, tables, starts, ends, glyf, components };
}

function checksum(table: Buffer): number {
  let sum = 0;
  for (let i = 0; i < table.length; i += 4) {
    const word = i + 4 <= table.length ? table.readUInt32BE(i) : Buffer.concat([table.subarray(i), Buffer.alloc(4)]).readUInt32BE(0);
    sum = (sum + word) >>> 0;
  }
  return sum;
}

/** The font with only `keep` (and their components) drawn; every other glyph empty. */
export function pruneTrueType(font: ParsedTrueType, keep: Iterable<number>): Buffer {
  const kept = new Set<number>([0]);
  const pending = [...keep];
  while (pending.length) {
    const gid = pending.pop()!;
    if (kept.has(gid) || gid >= font.starts.length) continue;
    kept.add(gid);
    pending.push(...font.components[gid]!);
  }
  const glyphCount = font.starts.length;
  const loca = Buffer.alloc((glyphCount + 1) * 4);
  const pieces: Buffer[] = [];
  let length = 0;
  for (let gid = 0; gid < glyphCount; gid++) {
    loca.writeUInt32BE(length, gid * 4);
    if (!kept.has(gid)) continue;
    const piece = font.glyf.subarray(font.starts[gid], font.ends[gid]);
    pieces.push(piece);
    length += piece.length;
    // Glyphs start on even offsets.
    if (piece.length % 2) {
      pieces.push(Buffer.alloc(1));
      length += 1;
    }
  }
  loca.writeUInt32BE(length, glyphCount * 4);
  const head = Buffer.from(font.tables.get('head')!);
  head.writeUInt32BE(0, 8); // checkSumAdjustment: not used by PDF viewers
  head.writeInt16BE(1, 50); // long loca offsets
  const tables = new Map(font.tables);
  tables.set('head', head);
  tables.set('loca', loca);
  tables.set('glyf', Buffer.concat(pieces, length));

  const tags = [...tables.keys()].sort();
  const entrySelector = Math.floor(Math.log2(tags.length));
  const searchRange = 2 ** entrySelector * 16;
  const directory = Buffer.alloc(12 + tags.length * 16);
  directory.writeUInt32BE(font.sfntVersion, 0);
  directory.writeUInt16BE(tags.length, 4);
  directory.writeUInt16BE(searchRange, 6);
  directory.writeUInt16BE(entrySelector, 8);
  directory.writeUInt16BE(tags.length * 16 - searchRange, 10);
  const bodies: Buffer[] = [];
  let offset = directory.length;
  tags.forEach((tag, i) => {
    const table = tables.get(tag)!;
    const record = 12 + i * 16;
    directory.write(tag, record, 4, 'latin1');
    directory.writeUInt32BE(checksum(table), record + 4);
    directory.writeUInt32BE(offset, record + 8);
    directory.writeUInt32BE(table.length, record + 12);
    const padded = table.length % 4 ? Buffer.concat([table, Buffer.alloc(4 - (table.length % 4))]) : table;
    bodies.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([directory, ...bodies]);
}
