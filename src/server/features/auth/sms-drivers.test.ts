// The eSMS driver against a local fake of its HTTP API.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEsmsSender, SmsDeliveryError } from './sms-drivers';

type Handler = (request: IncomingMessage, body: any, response: ServerResponse) => void;
let handler: Handler;
let received: { url?: string; method?: string; contentType?: string; body: any }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      received.push({ url: request.url, method: request.method, contentType: request.headers['content-type'], body });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/MainService.svc/json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
});

const quietLogger = { info: () => {}, warn: () => {} };
const sender = (timeoutMs = 2_000) =>
  createEsmsSender({ apiKey: 'KEY', secretKey: 'SECRET', brandName: 'DAISUVANHOA', baseUrl, timeoutMs }, quietLogger);
const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

describe('eSMS driver', () => {
  it('posts the documented JSON and accepts CodeResult "100"', async () => {
    handler = (_request, _body, response) => json(response, 200, { CodeResult: '100', SMSID: 'abc-123' });
    await sender().send('0912345678', 'Ma xac thuc: 123456');
    expect(received).toEqual([
      {
        url: '/MainService.svc/json/SendMultipleMessage_V4_post_json/',
        method: 'POST',
        contentType: 'application/json',
        body: { ApiKey: 'KEY', SecretKey: 'SECRET', Phone: '0912345678', Content: 'Ma xac thuc: 123456', Brandname: 'DAISUVANHOA', SmsType: '2' },
      },
    ]);
  });

  it('treats any other CodeResult as a refusal', async () => {
    handler = (_request, _body, response) => json(response, 200, { CodeResult: '101', ErrorMessage: 'Authorize Failed' });
    await expect(sender().send('0912345678', 'x')).rejects.toBeInstanceOf(SmsDeliveryError);
  });

  it('fails on an HTTP error or a body that is not JSON', async () => {
    handler = (_request, _body, response) => json(response, 500, { CodeResult: '100' });
    await expect(sender().send('0912345678', 'x')).rejects.toBeInstanceOf(SmsDeliveryError);
    handler = (_request, _body, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad gateway</html>');
    };
    await expect(sender().send('0912345678', 'x')).rejects.toBeInstanceOf(SmsDeliveryError);
  });

  it('gives up after the timeout', async () => {
    // The gateway holds its answer until the send has given up: a rejection can only be the timeout's.
    let answer = () => {};
    handler = (_request, _body, response) => (answer = () => json(response, 200, { CodeResult: '100' }));
    await expect(sender(100).send('0912345678', 'x')).rejects.toBeInstanceOf(SmsDeliveryError);
    answer();
  });

  it('fails when the gateway cannot be reached', async () => {
    const unreachable = createEsmsSender({ apiKey: 'K', secretKey: 'S', brandName: 'B', baseUrl: 'http://127.0.0.1:1/x', timeoutMs: 2_000 }, quietLogger);
    await expect(unreachable.send('0912345678', 'x')).rejects.toBeInstanceOf(SmsDeliveryError);
  });
});
