// Shared fixtures: a page that fails the test on an unexpected console error or warning (the
// app reports load failures with console.warn), and the SMS outbox of the server (log driver) to
// read one-time codes from.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { dataDirOf, WorkerServers, type ServerKind } from './servers';

/**
 * Console messages the tests provoke on purpose; anything else at level error or warning fails
 * the test. `page` is matched against the page's address when the message is logged.
 */
const ALLOWED_CONSOLE: { text: RegExp; page?: RegExp; why: string }[] = [
  {
    text: /^Failed to load resource/,
    why: "the browser's own line for a response a test asks for (401, 404, 503) or a cut network; the app's reports are not like that",
  },
  {
    text: /^Không dùng được liên kết đổi mật khẩu/,
    page: /\/doi-mat-khau\/khong-phai-lien-ket-that-/,
    why: 'accounts.spec opens a password link that does not exist',
  },
  {
    text: /^Service Worker registration blocked by Playwright/,
    why: "specs that answer API calls with page.route keep the offline shell's worker out (serviceWorkers: 'block')",
  },
];

type Navigate = (this: Page, ...args: unknown[]) => Promise<unknown>;

/**
 * A public page comes drawn in its HTML (docs/decisions/034), its buttons on the screen a moment
 * before the app handles them: after a page load (`goto`, `reload`, every page of the worker), a
 * test acts once the app has started on such a page, as a person does after the first second.
 * A load with `waitUntil: 'commit'` or `'domcontentloaded'` is left as it is (a test of that moment).
 */
async function actOnceStarted(browser: Browser) {
  const context = await browser.newContext();
  const pageClass = Object.getPrototypeOf(await context.newPage()) as Record<'goto' | 'reload', Navigate>;
  await context.close();
  for (const name of ['goto', 'reload'] as const) {
    const navigate = pageClass[name];
    pageClass[name] = async function (this: Page, ...args: unknown[]) {
      const response = await navigate.apply(this, args);
      const { waitUntil } = (args.find((arg) => typeof arg === 'object' && arg !== null) ?? {}) as { waitUntil?: string };
      if (waitUntil !== 'commit' && waitUntil !== 'domcontentloaded') {
        await this.locator('html[data-app-started], html:not(:has(#root > *))').first().waitFor({ state: 'attached' });
      }
      return response;
    };
  }
}

export const test = base.extend<{ consoleProblems: string[]; server: ServerKind }, { appStarted: void; servers: WorkerServers }>({
  /** Which of the worker's servers the tests of a file or group talk to: `test.use({ server: 'short-exam' })`. */
  server: ['demo', { option: true }],
  servers: [
    // Playwright reads a fixture's dependencies from its first parameter: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const servers = new WorkerServers(workerInfo.parallelIndex);
      // The demo server, which nearly every spec uses, within this fixture's own time limit
      // rather than the first test's.
      await servers.urlOf('demo').catch(async (error: unknown) => {
        await servers.stopAll();
        throw error;
      });
      await use(servers);
      await servers.stopAll();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  // The worker's server of that kind; the short-exam one starts when a test first needs it, with
  // the time it takes added to that test's limit. A spec with a server of its own sets baseURL
  // itself (test.use), and then this is not called.
  baseURL: async ({ servers, server }, use, testInfo) => {
    if (!servers.asked(server)) testInfo.setTimeout(testInfo.timeout + 120_000);
    await use(await servers.urlOf(server));
  },
  appStarted: [
    async ({ browser }, use) => {
      await actOnceStarted(browser);
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  consoleProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        const type = message.type();
        if (type !== 'error' && type !== 'warning') return;
        const text = message.text();
        if (ALLOWED_CONSOLE.some((allowed) => allowed.text.test(text) && (!allowed.page || allowed.page.test(page.url())))) return;
        problems.push(`${type}: ${text}`);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      await use(problems);
      expect(problems, 'unexpected console errors or warnings').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export interface OutboxMessage {
  phone: string;
  message: string;
  created_at: string;
}

/** The data folders of the servers of the worker running the current test. */
function workerDataDirs(): string[] {
  const { parallelIndex } = test.info();
  return [dataDirOf(parallelIndex, 'demo'), dataDirOf(parallelIndex, 'short-exam')];
}

/** The messages this worker's servers have sent (phones are unique across them); a spec with a server of its own names its folder. */
export function readOutbox(dataDirs: readonly string[] = workerDataDirs()): OutboxMessage[] {
  return dataDirs.flatMap((dir) => {
    const file = join(dir, 'sms-outbox.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as OutboxMessage);
  });
}

/** The newest 6-digit code sent to `phone`, waiting up to 10 s for it. */
export async function otpFor(phone: string, dataDirs?: readonly string[]): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const message = readOutbox(dataDirs).filter((m) => m.phone === phone).at(-1);
      code = message?.message.match(/\b(\d{6})\b/)?.[1];
      return code;
    }, { timeout: 10_000 })
    .toBeTruthy();
  return code!;
}

/** A fresh mobile number for each call, unlikely to collide across runs. */
let counter = 0;
export function uniquePhone(): string {
  counter += 1;
  return `09${String((Date.now() % 1e6) * 10 + counter).padStart(8, '0').slice(-8)}`;
}

export const phoneViewport = { width: 360, height: 740 };

/**
 * Chooses in a searchable select (components/ui/searchable-select.tsx) as a person does: a tap
 * opens its list, a tap on the option. `pick`: the option's name, or its place (1: the first).
 */
export async function chooseIn(scope: Locator, label: string, pick: number | string) {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await expect(box).toBeEnabled();
  await box.click();
  const list = scope.getByRole('listbox', { name: label, exact: true });
  await (typeof pick === 'number' ? list.getByRole('option').nth(pick - 1) : list.getByRole('option', { name: pick, exact: true })).click();
}

/**
 * Waits for what the user sees once a screen has loaded: its heading, no placeholder still
 * marked busy (the app's loading state is aria-busy="true") and the footer's contest details.
 */
export async function expectLoaded(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator('footer').getByRole('heading', { name: 'Đơn vị tổ chức' })).toBeVisible();
}

/** Runs axe-core in the page (evaluated through DevTools, so the site's CSP does not block it). */
export async function axeScan(page: Page, runOnly: axe.RunOptions['runOnly']) {
  await page.evaluate(axe.source);
  const results = await page.evaluate(
    (options) => (window as unknown as { axe: typeof axe }).axe.run(document, options),
    { runOnly } as axe.RunOptions,
  );
  const nodes = (list: axe.Result[]) => list.flatMap((rule) => rule.nodes.map((node) => `${rule.id}: ${node.target.join(' ')}`));
  return { results, nodes };
}

/**
 * The accessibility scan (axe-core, WCAG 2.0/2.1 A and AA) of what the page shows now: no
 * violation. Call it on every screen and state a test reaches, error states included.
 */
export async function expectAccessible(page: Page, label = page.url()) {
  const { results } = await axeScan(page, { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
  const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
  expect(found, `accessibility violations on ${label}`).toEqual([]);
}

export const DEMO_PARENT = { phone: '0987654321', password: 'phuhuynh123' };
export const DEMO_SCHOOL_ADMIN = { phone: '0901000001', password: 'truong123' };
export const DEMO_ORGANISER = { phone: '0901000009', password: 'bantochuc123' };
/** The education offices' demo viewers (issue 41): the whole province, and the unit Thành phố An Hoà. */
export const DEMO_PROVINCE_VIEWER = { phone: '0901000011', password: 'xemtinh123' };
export const DEMO_UNIT_VIEWER = { phone: '0901000012', password: 'xemdonvi123', unit: 'Thành phố An Hoà' };

/** Stores a session the way the app does: cookies token and user (and the token in localStorage). */
export async function storeSession(context: BrowserContext, baseURL: string, session: { token: string; user: unknown }) {
  await context.addCookies([
    { name: 'token', value: encodeURIComponent(session.token), url: baseURL },
    { name: 'user', value: encodeURIComponent(JSON.stringify(session.user)), url: baseURL },
  ]);
  await context.addInitScript((token) => window.localStorage.setItem('token', token), session.token);
}

/** Logs in through the API and stores the session in the page's context; returns the user. */
export async function logInAs(page: Page, account: { phone: string; password: string }) {
  const response = await page.request.post('/api/login', { data: account });
  expect(response.ok()).toBe(true);
  const body = await response.json();
  await storeSession(page.context(), new URL(response.url()).origin, { token: body.access_token, user: body.user });
  return body.user as { phone: string; name: string; is_admin_school: 0 | 1 };
}

/** The body of an API answer that must be a success (the test fails with the body otherwise). */
export async function ok<T = any>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = await response.json();
  expect(response.ok(), JSON.stringify(body)).toBe(true);
  return body as T;
}

export const DEMO_SCHOOL_NAME = 'Trường Tiểu học Lê Lợi';

/**
 * A parent registered through the public API (one-time code from the outbox of `dataDirs`' server)
 * with one child at the demo school, grade 5, class 5A2.
 */
export async function registerFamily(request: APIRequestContext, childName: string, dataDirs?: readonly string[]) {
  const phone = uniquePhone();
  const password = 'matkhau123';
  await ok(await request.post('/api/send-otp', { data: { phone, password, is_register: 1 } }));
  const registered = await ok(await request.post('/api/register', { data: { phone, password, otp: await otpFor(phone, dataDirs), consent: true } }));
  const token = registered.access_token as string;
  const headers = { authorization: `Bearer ${token}` };
  let found: { districtId: number; schoolId: number } | undefined;
  for (const district of (await ok(await request.get('/api/districts'))).data) {
    const school = (await ok(await request.get(`/api/schools?district_id=${district.id}`))).data.find((s: { name: string }) => s.name === DEMO_SCHOOL_NAME);
    if (school) found = { districtId: district.id, schoolId: school.id };
  }
  const group = (await ok(await request.get('/api/class-groups'))).data[2];
  const room = (await ok(await request.get(`/api/class-rooms?class_group_id=${group.id}`))).data.find((r: { name: string }) => r.name === '5A2');
  await ok(
    await request.post('/api/customer/profile', {
      headers,
      data: { phone, childrens: [{ fullname: childName, district_id: found!.districtId, school_id: found!.schoolId, class_group_id: group.id, class_room_id: room.id, child_consent: true }] },
    }),
  );
  const childId = (await ok(await request.get('/api/profile', { headers }))).data.childrens[0].id as number;
  return { phone, password, token, user: registered.user, headers, childId };
}

/**
 * An education office's viewer (issue 41) created by the organiser through the API, its password
 * set through its one-time link: the whole province, or the units named. Returns how to log in.
 */
export async function createViewer(request: APIRequestContext, units: readonly string[] = []) {
  const organiser = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const districts = (await ok(await request.get('/api/districts'))).data as { id: number; name: string }[];
  const phone = uniquePhone();
  const password = 'xem-so-lieu-123';
  const created = await ok(
    await request.post('/api/admin/viewers', {
      headers: { authorization: `Bearer ${organiser.access_token}` },
      data: { phone, name: units.length ? `Xem ${units.join(', ')}` : 'Sở Giáo dục và Đào tạo', kind: units.length ? 'unit' : 'province', district_ids: units.map((name) => districts.find((d) => d.name === name)!.id) },
    }),
  );
  const token = new URL(created.data.url).pathname.split('/').at(-1)!;
  const session = await ok(await request.get(`/api/customer/change-password?token=${encodeURIComponent(token)}`));
  await ok(await request.post('/api/customer/change-password', { headers: { authorization: `Bearer ${session.token}` }, data: { password } }));
  return { phone, password };
}
