// Tiny, real audio files made in memory for tests (no binary fixtures in the repository): silent
// MPEG-1 Layer III frames (with an ID3v2 tag or without), PCM WAV and Ogg Opus.

/** `seconds` of silent 128 kb/s, 44.1 kHz MP3 frames (417 bytes, 1,152 samples each), after a small ID3v2.4 tag when asked. */
export function sampleMp3({ seconds = 1, id3 = true }: { seconds?: number; id3?: boolean } = {}): Buffer {
  const frames = Math.max(3, Math.round((seconds * 44100) / 1152));
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  const body = Buffer.concat(Array.from({ length: frames }, () => frame));
  if (!id3) return body;
  // TIT2 (title) frame "x": 10-byte frame header + encoding byte + text.
  const title = Buffer.concat([Buffer.from('TIT2'), Buffer.from([0, 0, 0, 2, 0, 0, 3]), Buffer.from('x')]);
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, title.length]);
  return Buffer.concat([header, title, body]);
}

/** `seconds` of silent 8 kHz mono 16-bit PCM in a RIFF/WAVE file. */
export function sampleWav({ seconds = 1 }: { seconds?: number } = {}): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * seconds * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

// Ogg pages carry a CRC-32 (polynomial 0x04c11db7, no reflection) over the page with the field zeroed.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let r = n << 24;
  for (let i = 0; i < 8; i += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  return r >>> 0;
});
function oggPage(packets: Buffer[], { sequence, granule, flags }: { sequence: number; granule: bigint; flags: number }): Buffer {
  // Lacing: each packet as 255-byte segments, ended by one shorter than 255 (maybe 0).
  const segments = packets.flatMap((packet) => [...Array<number>(Math.floor(packet.length / 255)).fill(255), packet.length % 255]);
  const header = Buffer.alloc(27);
  header.write('OggS', 0);
  header[5] = flags;
  header.writeBigUInt64LE(granule, 6);
  header.writeUInt32LE(1, 14); // stream serial number
  header.writeUInt32LE(sequence, 18);
  header[26] = segments.length;
  const page = Buffer.concat([header, Buffer.from(segments), ...packets]);
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  page.writeUInt32LE(crc, 22);
  return page;
}

/** `seconds` of Ogg Opus (48 kHz): the two header pages, then pages of 20 ms silent packets. */
export function sampleOggOpus({ seconds = 1 }: { seconds?: number } = {}): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0);
  head[8] = 1; // version
  head[9] = 1; // channels
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(48000, 12);
  const tags = Buffer.concat([Buffer.from('OpusTags'), Buffer.from([4, 0, 0, 0]), Buffer.from('test'), Buffer.alloc(4)]);
  const pages = [oggPage([head], { sequence: 0, granule: 0n, flags: 2 }), oggPage([tags], { sequence: 1, granule: 0n, flags: 0 })];
  // TOC byte 0xf8 alone: a CELT-only fullband 20 ms packet with an empty frame (silence).
  const packets = Math.max(1, Math.round(seconds * 50));
  for (let done = 0; done < packets; ) {
    const count = Math.min(255, packets - done);
    done += count;
    const flags = done === packets ? 4 : 0;
    pages.push(oggPage(Array.from({ length: count }, () => Buffer.from([0xf8])), { sequence: pages.length, granule: BigInt(done * 960 + PRE_SKIP), flags }));
  }
  return Buffer.concat(pages);
}
const PRE_SKIP = 312;
