// Input from strangers (issue 21, rows 4 to 8): every one answers a clear 4xx in the one error
// shape with a request id, nothing is stored, and nothing reaches the log as a failure. Every
// input is made here (no fixtures). Row 7 (the current password) is in features/auth/session.api.test.ts.
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputMessages, messages } from '../shared/messages';
import { MAX_JSON_DEPTH } from './lib/input-guard';
import { createOrganiser, type CreatedUser } from './test/factories';
import { startTestServer, type TestServer } from './test/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let server: TestServer;
let organiser: CreatedUser;
let log = '';
beforeAll(async () => {
  const stream = new Writable({ write: (chunk, _encoding, done) => ((log += String(chunk)), done()) });
  server = await startTestServer({ log: { stream, level: 'info' } });
  organiser = await createOrganiser(server);
});
afterAll(() => server?.close());

const count = async (table: 'sessions' | 'users' | 'login_failures' | 'media' | 'audit_log' | 'schools') =>
  Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const countAll = async () => ({
  sessions: await count('sessions'),
  users: await count('users'),
  login_failures: await count('login_failures'),
  media: await count('media'),
  audit: await count('audit_log'),
  schools: await count('schools'),
});
const postRaw = async (path: string, body: string | Buffer, contentType = 'application/json', token?: string) => {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, body: await response.json() };
};
const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('row 4: a JSON body nested too deep', () => {
  it(`is a 400 invalid_input past ${MAX_JSON_DEPTH} levels, before any other check, on any POST; nothing stored, no failure logged`, async () => {
    const before = await countAll();
    log = '';
    const bodies = {
      '9,000 levels (18 KB)': nested(9000),
      '9,000 levels of objects in a field': `{"phone":"0987654321","password":"phuhuynh123","x":${'{"a":'.repeat(9000)}1${'}'.repeat(9000)}}`,
      '250,000 unclosed brackets': '['.repeat(250_000),
      [`${MAX_JSON_DEPTH + 1} levels`]: nested(MAX_JSON_DEPTH + 1),
    };
    for (const path of ['/api/login', '/api/register', '/api/send-otp', '/api/forgot-password', '/api/admin/schools']) {
      for (const [name, body] of Object.entries(bodies)) {
        const response = await postRaw(path, body, 'application/json', path.startsWith('/api/admin') ? organiser.token : undefined);
        expect(response.status, `${path} ${name}`).toBe(400);
        expect(response.body).toEqual({ success: false, code: 'invalid_input', message: inputMessages.tooDeep, request_id: expect.stringMatching(UUID) });
      }
    }
    expect(await countAll()).toEqual(before);
    expect(log).not.toMatch(/request failed|RangeError|Maximum call stack/);
  });

  it(`lets ${MAX_JSON_DEPTH} levels through to the route, and brackets inside strings do not count`, async () => {
    const deepButAllowed = `{"phone":"0987654321","password":"phuhuynh123","x":${nested(MAX_JSON_DEPTH - 1)}}`;
    expect((await postRaw('/api/login', deepButAllowed)).status).toBe(200);
    const brackets = JSON.stringify({ phone: '0987654321', password: 'phuhuynh123', x: '['.repeat(10_000) + '\\"{'.repeat(1000) });
    expect((await postRaw('/api/login', brackets)).status).toBe(200);
  });
});

/** A multipart body written byte by byte, so that the file name carries exactly the bytes given. */
function multipart(fileName: Buffer, content: Buffer, fields: Record<string, string> = {}) {
  const boundary = '----strangers' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
    fileName,
    Buffer.from(`"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
// NUL, ESC (with a colour sequence), DEL, a C1 control and a right-to-left override.
const oddName = (name: string, ext: string) => Buffer.concat([Buffer.from(name), Buffer.from([0x00, 0x1b]), Buffer.from('[31m\x7f'), Buffer.from('\u0085\u202e', 'utf8'), Buffer.from(`.${ext}`)]);

describe('row 5: a file name with NUL and escape characters', () => {
  it('is cleaned before the audit log sees it (an import and an image upload)', async () => {
    const csv = Buffer.from('Quận/Huyện,Trường,Địa chỉ,Số học sinh\nHuyện Tên Lạ,Trường Tiểu học Tên Lạ,Thôn 1,10\n');
    const upload = multipart(oddName('truong', 'csv'), csv);
    const imported = await postRaw('/api/admin/schools/import', upload.body, upload.contentType, organiser.token);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data.file_name).toBe('truong[31m.csv');

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const logo = multipart(oddName('logo', 'png'), png);
    const stored = await postRaw('/api/admin/site/sponsor-logo', logo.body, logo.contentType, organiser.token);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);

    const audit = await server.db.selectFrom('audit_log').select(['summary', 'details']).orderBy('id', 'desc').limit(2).execute();
    const text = JSON.stringify(audit);
    expect(text).toContain('truong[31m.csv');
    expect(text).toContain('logo[31m.png');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]|\\u00(0|1|7f|8|9)/i);
  });

  it('a name made only of control characters on a refused import: a 422, nothing stored', async () => {
    const before = await countAll();
    const upload = multipart(Buffer.from([0x00, 0x1b, 0x07]), Buffer.from('not a sheet'));
    const response = await postRaw('/api/admin/schools/import', upload.body, upload.contentType, organiser.token);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ success: false, request_id: expect.stringMatching(UUID) });
    expect(await countAll()).toEqual(before);
  });
});

describe('row 6: an HTML file that starts with ID3, as a question clip', () => {
  it('is a 422 with a Vietnamese message; nothing stored', async () => {
    const before = await countAll();
    const html = Buffer.from('ID3<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    // With a well-formed ID3 tag in front, and a lone MPEG frame header: still not audio.
    const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
    for (const bytes of [html, Buffer.concat([tag, html]), Buffer.concat([tag, Buffer.from([0xff, 0xfb, 0x90, 0xc4]), html])]) {
      const upload = multipart(Buffer.from('cau-hoi.mp3'), bytes);
      const response = await postRaw('/api/admin/questions/audio', upload.body, upload.contentType, organiser.token);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        success: false,
        code: 'file_not_accepted',
        message: inputMessages.notAudio,
        errors: { file: inputMessages.notAudio },
        request_id: expect.stringMatching(UUID),
      });
    }
    expect(await countAll()).toEqual(before);
  });
});

describe('row 8: every error answer has the one shape with a request id', () => {
  const raw = (request: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.write(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve({ status: Number(data.split(' ')[1]), body: JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4)) }));
      socket.on('error', reject);
    });

  it('headers too large: 431; a malformed request: 400 (the HTTP parser refuses both before Fastify)', async () => {
    const big = await raw(`GET /api/site HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toEqual({ status: 431, body: { success: false, code: 'header_too_large', message: messages.payloadTooLarge, request_id: expect.stringMatching(UUID) } });
    // Many small headers, over 16 KB together.
    const many = await raw(`GET /api/site HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${'v'.repeat(20)}`).join('\r\n')}\r\n\r\n`);
    expect(many.status).toBe(431);
    expect(many.body.request_id).toMatch(UUID);
    const malformed = await raw('GET /api/site HTTP/9.9 what\r\n\r\n');
    expect(malformed).toEqual({ status: 400, body: { success: false, code: 'bad_request', message: messages.invalidInput, request_id: expect.stringMatching(UUID) } });
    // The id is in the log too, so a complaint can be traced.
    expect(log).toContain(big.body.request_id);
  });

  it('404, 413 and 415 carry it as well', async () => {
    const notFound = await server.request('GET', '/api/khong-co');
    const tooLarge = await server.request('POST', '/api/login', { body: { phone: 'x'.repeat(300 * 1024) } });
    const wrongType = await postRaw('/api/login', '<a/>', 'application/xml');
    for (const [response, status] of [[notFound, 404], [tooLarge, 413], [wrongType, 415]] as const) {
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String), request_id: expect.stringMatching(UUID) });
    }
  });
});
