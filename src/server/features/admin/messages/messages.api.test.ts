// Messages to families over HTTP: the preview's count and cost, the refusals (empty audience, a
// text past one SMS segment, a parameter left out), the send through the queue with the log SMS
// driver, the opt-out, the quiet hours, one reminder a day, the daily cap, and ZNS with its SMS
// fallback against a ZNS gateway this test serves on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, type CreatedUser } from '../../../test/factories';
import { until } from '../../../test/replica-pair';
import { createLogSmsSender } from '../../auth/sms-drivers';
import { createZnsSender, startMessageDelivery } from '.';

let server: TestServer;
let organiser: CreatedUser;
let delivery: { stop(): Promise<void> };
let zalo: Server;
const znsCalls: { token: string | undefined; body: { phone: string; template_id: string; template_data: Record<string, string>; tracking_id: string } }[] = [];
/** Phones (84…) the loopback ZNS says have no Zalo account. */
const withoutZalo = new Set<string>();
let schoolId = 0;
let emptySchoolId = 0;
const parents: CreatedUser[] = [];

// 10:00 in Viet Nam (03:00 UTC), inside the demo's exam window.
const MORNING = '2026-12-04T03:00:00Z';

beforeAll(async () => {
  zalo = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text);
      znsCalls.push({ token: request.headers.access_token as string | undefined, body });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(withoutZalo.has(body.phone) ? { error: -118, message: 'Zalo account not existed' } : { error: 0, message: 'Success', data: { msg_id: `m${znsCalls.length}` } }));
    });
  });
  await new Promise<void>((resolve) => zalo.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    now: MORNING,
    env: { ZNS_DRIVER: 'zalo', ZNS_ACCESS_TOKEN: 'oa-token', ZNS_BASE_URL: `http://127.0.0.1:${(zalo.address() as AddressInfo).port}`, MESSAGES_SMS_PER_SECOND: '100', MESSAGES_ZNS_PER_SECOND: '100' },
  });
  organiser = await createOrganiser(server);
  const district = await server.db.selectFrom('districts').select('id').orderBy('id').executeTakeFirstOrThrow();
  const addSchool = async (name: string) =>
    (await server.db.insertInto('schools').values({ name, district_id: district.id, address: '' }).returning('id').executeTakeFirstOrThrow()).id;
  schoolId = await addSchool('Trường Tiểu học Tin Nhắn');
  emptySchoolId = await addSchool('Trường Tiểu học Không Ai');
  for (let i = 0; i < 3; i++) {
    const parent = await createParent(server);
    await createContestant(server, parent, { schoolId });
    parents.push(parent);
  }
  const logger = pino({ level: 'silent' });
  delivery = await startMessageDelivery({ db: server.db, clock: server.clock, config: server.config, sms: createLogSmsSender(server.dataDir, logger, server.clock.now), zns: createZnsSender(server.config, logger), logger });
});

afterAll(async () => {
  await delivery?.stop();
  await server?.close();
  await new Promise((resolve) => zalo?.close(resolve));
});

const school = () => ({ kind: 'school' as const, school_id: schoolId });
const post = (path: string, body: unknown) => server.request('POST', `/api/admin/messages${path}`, { token: organiser.token, body });
const campaign = async (id: number) => (await server.request('GET', `/api/admin/messages/campaigns/${id}`, { token: organiser.token })).body.data;
const settled = async (id: number) => {
  await until(async () => {
    const c = await campaign(id);
    return c.counts.waiting + c.counts.sending === 0;
  }, 'delivered');
  return campaign(id);
};
const smsTo = (phone: string) => server.outbox().filter((message) => message.phone === phone && message.message.includes('/tu-choi/'));

describe('messages to families', () => {
  it('previews how many families a message reaches, in how many segments, at what cost', async () => {
    const preview = await post('/preview', { body: 'Hop phu huynh luc 8h sang thu bay tai truong', audience: school() });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ recipients: 3, opted_out: 0, encoding: 'gsm7', segments: 1, cost: 3 * 800, quiet_hours: false });
    expect(preview.body.data.text).toMatch(/Tu choi: http:\/\/localhost:\d+\/tu-choi\/x{12}$/);
  });

  it('refuses an empty audience, a text past one segment and a parameter left out, saying why', async () => {
    const empty = await post('/preview', { body: 'Xin chao', audience: { kind: 'school', school_id: emptySchoolId } });
    // A preview of nobody is a count of 0; the send is what refuses it.
    expect(empty.body.data.recipients).toBe(0);
    const send = await post('', { body: 'Xin chao', audience: { kind: 'school', school_id: emptySchoolId } });
    expect(send.status).toBe(422);
    expect(send.body).toMatchObject({ success: false, code: 'empty_audience', message: 'Không có phụ huynh nào trong nhóm nhận đã chọn (hoặc tất cả đã từ chối nhận tin). Hãy chọn nhóm khác.' });

    const long = await post('/preview', { body: 'Kính gửi quý phụ huynh, kết quả cuộc thi đã được công bố', audience: school() });
    expect(long.status).toBe(422);
    expect(long.body.code).toBe('message_too_long');
    expect(long.body.message).toMatch(/^Tin nhắn dài \d+ ký tự, cần 2 tin SMS; chỉ được gửi 1 tin \(tối đa 70 ký tự khi có chữ có dấu/);

    const missing = await post('/preview', { body: 'Chao {ten_con}, {cuoc_thi}', audience: school() });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'template_params_missing', message: 'Thiếu giá trị cho tham số: {ten_con}.' });
    const filled = await post('/preview', { body: 'Chao {ten_con}', params: { ten_con: 'ban' }, audience: school() });
    expect(filled.body.data.text).toMatch(/^Chao ban Tu choi/);

    const noTemplate = await post('/preview', { body: 'Xin chao', channel: 'zns', audience: school() });
    expect(noTemplate.body).toMatchObject({ code: 'template_params_missing', message: 'Vui lòng nhập mã mẫu ZNS đã được Zalo duyệt.' });
    const emptyParam = await post('/preview', { body: 'Xin chao', channel: 'zns', zns_template_id: '231', zns_params: { ten: '' }, audience: school() });
    expect(emptyParam.body).toMatchObject({ code: 'template_params_missing', message: 'Thiếu giá trị cho tham số: {ten}.' });
  });

  it('sends by SMS through the queue, once per family, each with its opt-out link, and audits the send', async () => {
    const sent = await post('', { template: 'results_published', body: '{cuoc_thi}: da cong bo ket qua. Xem tai {trang_web}', audience: school() });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ recipients: 3, estimated_cost: 2400, channel: 'sms' });
    const report = await settled(sent.body.data.id);
    expect(report.counts).toMatchObject({ sent: 3, failed: 0, opted_out: 0 });
    for (const parent of parents) {
      const messages = smsTo(parent.phone);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.message).toMatch(/da cong bo ket qua\. Xem tai localhost:\d+ Tu choi: http:\/\/localhost:\d+\/tu-choi\/[A-Za-z0-9_-]{12}$/);
    }
    const audit = await server.request('GET', '/api/admin/audit?kind=messages', { token: organiser.token });
    expect(audit.body.data.items[0].summary).toMatch(/^Gửi tin nhắn "Đã công bố kết quả" qua SMS tới 3 phụ huynh \(Phụ huynh của Trường Tiểu học Tin Nhắn\), dự kiến 2\.400 đ$/);

    const file = await fetch(`${server.url}/api/admin/messages/campaigns/${sent.body.data.id}/recipients.xlsx`, { headers: { authorization: `Bearer ${organiser.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain(`tin-nhan-${sent.body.data.id}.xlsx`);
  });

  it('honours an opt-out from its link for every later send: the page reads, its button writes', async () => {
    const link = smsTo(parents[0]!.phone)[0]!.message.match(/\/tu-choi\/([A-Za-z0-9_-]{12})$/)![1]!;
    const state = await server.request('GET', `/api/opt-out/${link}`);
    expect(state.body.data).toEqual({ opted_out: false, masked_phone: expect.stringMatching(/\*/) });
    const unknown = await server.request('GET', '/api/opt-out/AAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    const posted = await server.request('POST', `/api/opt-out/${link}`, { body: {} });
    expect(posted.body).toMatchObject({ success: true, data: { opted_out: true } });

    const preview = await post('/preview', { body: 'Thong bao', audience: school() });
    expect(preview.body.data).toMatchObject({ recipients: 2, opted_out: 1, cost: 1600 });
    const sent = await post('', { body: 'Thong bao hop phu huynh', audience: school() });
    const report = await settled(sent.body.data.id);
    expect(report.counts).toMatchObject({ sent: 2, opted_out: 1 });
    expect(smsTo(parents[0]!.phone)).toHaveLength(1);
  });

  it('sends one reminder a day to a family', async () => {
    const reminder = { template: 'reminder', body: '{cuoc_thi}: con van con luot thi, han chot {ngay_dong}. Vao thi: {trang_web}', audience: school() };
    const first = await settled((await post('', reminder)).body.data.id);
    expect(first.counts).toMatchObject({ sent: 2, opted_out: 1 });
    const second = await post('', reminder);
    expect(second.status).toBe(200);
    expect(second.body.data.counts).toMatchObject({ reminded_today: 2, opted_out: 1, waiting: 0 });
  });

  it('sends by ZNS with the template and its parameters, and by SMS to a phone without Zalo', async () => {
    withoutZalo.add(parents[2]!.phone.replace(/^0/, '84'));
    const before = znsCalls.length;
    const sent = await post('', { body: 'Thong bao', channel: 'zns', zns_template_id: '231', zns_params: { ten_cuoc_thi: '{cuoc_thi}' }, audience: school() });
    expect(sent.status).toBe(200);
    const report = await settled(sent.body.data.id);
    expect(report.counts).toMatchObject({ sent: 2, opted_out: 1 });
    expect(report.fell_back).toBe(1);
    const calls = znsCalls.slice(before);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.token).toBe('oa-token');
      expect(call.body).toMatchObject({ template_id: '231', template_data: { ten_cuoc_thi: expect.any(String), link_tu_choi: expect.stringMatching(/\/tu-choi\//) }, tracking_id: expect.stringMatching(/^msg-\d+$/) });
    }
    expect(smsTo(parents[1]!.phone).filter((m) => m.message.startsWith('Thong bao Tu choi'))).toHaveLength(0);
    expect(smsTo(parents[2]!.phone).filter((m) => m.message.startsWith('Thong bao Tu choi'))).toHaveLength(1);
  });

  it('stops at the daily cap of a channel: the rest waits for the next day', async () => {
    const put = await server.request('PUT', '/api/admin/messages/settings', { token: organiser.token, body: { sms_segment_price: '850 đ', zns_price: 300, sms_daily_cap: 0, zns_daily_cap: 20000 } });
    expect(put.body.data).toMatchObject({ sms_segment_price: 850, sms_daily_cap: 0 });
    const preview = await post('/preview', { body: 'Thong bao', audience: school() });
    expect(preview.body.data).toMatchObject({ cost: 1700, cap_left_today: 0 });
    const sent = await post('', { body: 'Thong bao het han muc', audience: school() });
    await until(async () => (await server.db.selectFrom('message_recipients').select('id').where('campaign_id', '=', sent.body.data.id).where('status', '=', 'waiting').execute()).length === 2, 'waiting');
    // Deferred jobs: nothing went out, nothing failed.
    expect((await campaign(sent.body.data.id)).counts).toMatchObject({ sent: 0, failed: 0, waiting: 2 });
  });

  it('keeps the quiet hours unless the notice is urgent', async () => {
    server.clock.set('2026-12-04T15:30:00Z'); // 22:30 in Viet Nam
    const quiet = await post('/preview', { body: 'Thong bao', audience: school() });
    expect(quiet.body.data).toMatchObject({ quiet_hours: true, send_after: '2026-12-05T00:00:00.000Z' }); // 07:00 on 05/12
    const urgent = await post('/preview', { body: 'Thong bao', audience: school(), urgent: true });
    expect(urgent.body.data).toMatchObject({ quiet_hours: false, send_after: '2026-12-04T15:30:00.000Z' });
    const sent = await post('', { body: 'Thong bao ban dem', audience: school() });
    expect(sent.body.data).toMatchObject({ send_after: '2026-12-05T00:00:00.000Z', counts: { waiting: 2 } });
  });
});
