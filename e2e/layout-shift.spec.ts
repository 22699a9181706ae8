// Layout shift (CLS) of every page a family sees, at 360 px, on a slow network (issue 38.2): the
// page's own chunk, its data, its images and the fonts arrive late, one after the other, and
// nothing on screen may move when they do. Layout does not depend on the machine's speed, so the
// figure is the same on a fast or a slow machine; the throttled network only makes sure the late
// arrivals happen after the first paint, as they do on a phone. Each page is opened by its address
// with an empty cache (a first visit from a link in a message): the shell, the fonts, the page's
// chunk, its data and its images all come over the slow network.
import type { APIRequestContext, CDPSession, Page } from '@playwright/test';
import { DEMO_PROVINCE_VIEWER, DEMO_SCHOOL_ADMIN, expect, ok, phoneViewport, registerFamily, storeSession, test } from './fixtures';

// The offline shell's service worker would answer the files from its cache, past the throttle.
test.use({ serviceWorkers: 'block', viewport: phoneViewport });

/** Slow 4G as DevTools defines it: 150 ms round trip, 1.6 Mbps down, 750 kbps up. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CLS_LIMIT = 0.05;

/**
 * Collects every layout-shift entry of the page from its first paint (buffered), with what moved.
 * A string: the page runs it as it is, before any of the app's scripts.
 */
const SHIFT_RECORDER = `
  window.__shifts = [];
  const describe = (node) => {
    if (!node || node.nodeType !== 1) return node ? node.nodeName : '(gone)';
    const cls = typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\\s+/).join('.') : '';
    return node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + cls;
  };
  const rect = (r) => Math.round(r.x) + ',' + Math.round(r.y) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shifts.push({
        value: entry.value,
        sources: (entry.sources || []).map((s) => describe(s.node) + ' ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

interface Shift {
  value: number;
  sources: string[];
}

/** Opens `path` on the throttled network, waits until it is settled and returns its layout shifts. */
async function shiftsOf(page: Page, path: string, heading: RegExp | string, options: { footer?: boolean } = {}) {
  await cdpOf.get(page)!.send('Network.clearBrowserCache');
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
  if (options.footer !== false) await expect(page.locator('footer').getByRole('heading', { name: 'Đơn vị tổ chức' })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // The images of the first screen drawn and the fonts in use, then two frames for the last layout.
  await page.waitForFunction(() => [...document.images].every((img) => img.loading === 'lazy' || img.complete));
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
}

/** Records the page's shifts in the report and checks their total (stricter than CLS's session windows). */
function expectSteady(path: string, shifts: Shift[]) {
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  test.info().annotations.push({ type: 'CLS', description: `${path}: ${total.toFixed(3)}` });
  for (const shift of shifts) test.info().annotations.push({ type: 'shift', description: `${path}: ${shift.value.toFixed(3)} ${shift.sources.join('; ')}` });
  expect.soft(total, `layout shift of ${path}: ${JSON.stringify(shifts, null, 1)}`).toBeLessThanOrEqual(CLS_LIMIT);
}

const cdpOf = new Map<Page, CDPSession>();

async function throttled(page: Page) {
  await page.addInitScript({ content: SHIFT_RECORDER });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  cdpOf.set(page, cdp);
}

/** Starts an exam on the contestant's first book through the exam API. */
async function startExam(request: APIRequestContext, family: { token: string; childId: number }) {
  const headers = { authorization: `Bearer ${family.token}` };
  const books = await ok(await request.get(`/api/children/${family.childId}/books`, { headers }));
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: books.data[0].id, child_id: family.childId } }));
  return { slug: started.slug as string, examId: started.exam_id as number, bookId: started.book_id as number };
}

/** Loads the exam (taking it over from any screen), answers every question and submits it. */
async function submitExam(request: APIRequestContext, family: { token: string; childId: number }, exam: { slug: string; examId: number; bookId: number }) {
  const headers = { authorization: `Bearer ${family.token}` };
  const taking = await ok(await request.get(`/api/examing?book_id=${exam.bookId}&child_id=${family.childId}&slug_exam=${exam.slug}`, { headers }));
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  await ok(await request.post('/api/store-answers-exam', { headers, data: { exam_id: exam.examId, slug: exam.slug, answers, prediction: 300, seq: 1 } }));
  await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: exam.examId, slug: exam.slug, answers, prediction: 300, seq: 2 } }));
}

test.describe('no layout shift on a phone on a slow network', () => {
  test.describe.configure({ timeout: 180_000 });

  // 360 px, and 412 px: the phone Lighthouse emulates, where the home page's title wraps otherwise.
  for (const width of [360, 412]) {
    test(`public pages at ${width} px: home, rules, the winners, news, an article, login, register, forgotten password`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: width === 412 ? 823 : phoneViewport.height });
      const news = await ok(await request.get('/api/blogs'));
      const article = news.data[0] as { slug: string; name: string };
      await throttled(page);
      const pages: [string, RegExp | string][] = [
        ['/', /Đại sứ Văn hoá đọc/],
        ['/the-le', /Thể lệ/],
        ['/danh-sach-doat-giai', /Danh sách đoạt giải/],
        ['/tin-tuc', /Tin tức/],
        [`/tin-tuc/${article.slug}`, article.name],
        ['/dang-nhap', /Đăng nhập/],
        ['/dang-ky', /Đăng ký/],
        ['/quen-mat-khau', /Quên mật khẩu/],
      ];
      for (const [path, heading] of pages) {
        await test.step(path, async () => expectSteady(`${path} (${width} px)`, await shiftsOf(page, path, heading)));
      }
    });
  }

  test("a family's pages: profile, Vào thi, the exam, the result, the certificate, the report", async ({ page, request, baseURL }) => {
    const family = await registerFamily(request, 'Lê Khánh Vy');
    await storeSession(page.context(), baseURL!, family);
    await throttled(page);
    await test.step('/tai-khoan', async () => expectSteady('/tai-khoan', await shiftsOf(page, '/tai-khoan', 'Thông tin đăng ký thí sinh dự thi')));
    await test.step('/du-thi', async () => expectSteady('/du-thi', await shiftsOf(page, '/du-thi', 'Vào thi')));

    const exam = await startExam(request, family);
    const examPath = `/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`;
    await test.step('the exam', async () => {
      const shifts = await shiftsOf(page, examPath, /.+/, { footer: false });
      await expect(page.locator('.exam-question-text')).not.toBeEmpty();
      expectSteady('/bat-dau-thi/…', shifts);
    });
    await page.goto('/');
    await submitExam(request, family, exam);

    const resultPath = `/ket-qua-thi/${exam.slug}`;
    await test.step('the result', async () => expectSteady('/ket-qua-thi/…', await shiftsOf(page, resultPath, 'Kết quả thi')));
    await test.step('the certificate', async () => {
      const shifts = await shiftsOf(page, `/giay-chung-nhan/${family.childId}`, 'Giấy chứng nhận');
      expectSteady('/giay-chung-nhan/…', shifts);
    });
    await test.step('the report', async () => expectSteady('/bao-cao', await shiftsOf(page, '/bao-cao', 'Báo cáo')));
  });

  test("the school administrator's report", async ({ page, request, baseURL }) => {
    const login = await ok(await request.post('/api/login', { data: DEMO_SCHOOL_ADMIN }));
    await storeSession(page.context(), baseURL!, { token: login.access_token, user: login.user });
    await throttled(page);
    expectSteady('/bao-cao (trường)', await shiftsOf(page, '/bao-cao', 'Báo cáo cho trường'));
  });

  test("the education offices' figures: participation and results (issue 41)", async ({ page, request, baseURL }) => {
    const login = await ok(await request.post('/api/login', { data: DEMO_PROVINCE_VIEWER }));
    await storeSession(page.context(), baseURL!, { token: login.access_token, user: login.user });
    await throttled(page);
    await test.step('/so-giao-duc', async () => expectSteady('/so-giao-duc', await shiftsOf(page, '/so-giao-duc', 'Số liệu cuộc thi')));
    await test.step('/so-giao-duc/ket-qua', async () => expectSteady('/so-giao-duc/ket-qua', await shiftsOf(page, '/so-giao-duc/ket-qua', 'Số liệu cuộc thi')));
  });
});
