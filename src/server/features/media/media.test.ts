// An audio clip is accepted only when it parses as audio with a duration (issue 21, row 6).
import { describe, expect, it } from 'vitest';
import { sampleMp3, sampleOggOpus, sampleWav } from '../../test/audio-samples';
import { readAudio } from './media';

const id3Tag = (body: Buffer) => Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), body]);
const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'.repeat(30));

describe('readAudio', () => {
  it('reads the type and duration of MP3 (with and without ID3), WAV and Ogg Opus', async () => {
    expect(await readAudio(sampleMp3({ seconds: 2 }))).toMatchObject({ contentType: 'audio/mpeg', ext: 'mp3', seconds: expect.closeTo(2, 0) });
    expect(await readAudio(sampleMp3({ id3: false }))).toMatchObject({ ext: 'mp3', seconds: expect.closeTo(1, 0) });
    expect(await readAudio(sampleWav({ seconds: 3 }))).toEqual({ contentType: 'audio/wav', ext: 'wav', seconds: 3 });
    expect(await readAudio(sampleOggOpus({ seconds: 6 }))).toEqual({ contentType: 'audio/ogg', ext: 'ogg', seconds: 6 });
  });

  it('refuses files that only start like audio', async () => {
    const oneFrame = sampleMp3({ id3: false }).subarray(0, 417);
    const refused = {
      'ID3 then HTML': Buffer.concat([Buffer.from('ID3'), html]),
      'a valid ID3 tag then HTML': id3Tag(html),
      'a valid ID3 tag, one frame header, then HTML': id3Tag(Buffer.concat([oneFrame.subarray(0, 4), html])),
      'a single MP3 frame': oneFrame,
      'ftyp and nothing else': Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypM4A '), Buffer.alloc(200)]),
      'OggS and nothing else': Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200)]),
      'an EBML header and nothing else': Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(200)]),
      'RIFF WAVE without its chunks': Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(100)]),
      'a WAV cut after its header': sampleWav().subarray(0, 44),
      'an empty file': Buffer.alloc(0),
      'text': Buffer.from('không phải âm thanh'),
    };
    for (const [name, bytes] of Object.entries(refused)) expect(await readAudio(bytes), name).toBeUndefined();
  });
});
