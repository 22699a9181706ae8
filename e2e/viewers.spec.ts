// Issue 41: the education offices' read-only viewers. The organiser creates a province viewer and
// a unit viewer from Tài khoản (the one-time link shown, opened, a password set); each logs in at
// /dang-nhap, lands on /so-giao-duc and sees exactly its scope: the province viewer every unit and
// school of the catalogue, the unit viewer its unit's schools and figures only, on the participation
// tab and on the published results; each downloads an .xlsx that opens, with no parent's phone in
// it. At 1280 and 768 px, axe clean on every screen. Publishing results cannot be undone, so the
// spec has a server of its own (offset 9) with the demo results published; the page before
// publication is read on the worker's demo server, by the demo unit viewer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from '@playwright/test';
import readExcelFile from 'read-excel-file/node';
import writeExcelFile from 'write-excel-file/node';
import { formatNumber } from '../src/shared/format';
import { DEMO_ORGANISER, DEMO_UNIT_VIEWER, createViewer, expect, expectAccessible, expectLoaded, logInAs, ok, test, uniquePhone } from './fixtures';
import { ownServerUrl, startOwnServer } from './servers';

const OFFSET = 9;
const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 768, height: 1024 };
/** The unit the spec's unit viewer sees (demo catalogue: 4 schools, 720 + 410 + 365 + 298 pupils). */
const UNIT = 'Huyện Sông Cầu';
const UNIT_PUPILS = 1793;
/** Every pupil of the demo catalogue's 13 schools. */
const PROVINCE_PUPILS = 8828;
const SCHOOLS_TABLE = 'Các trường, tỉ lệ tham gia thấp nhất trước';

const dir = mkdtempSync(join(tmpdir(), 'viewers-e2e-'));
async function saved(download: Download): Promise<string> {
  const path = join(dir, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return path;
}

async function forgetSession(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
}

async function logInWithForm(page: Page, account: { phone: string; password: string }) {
  await page.goto('/dang-nhap');
  await page.getByLabel('Số điện thoại').fill(account.phone);
  await page.getByLabel('Mật khẩu').fill(account.password);
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
}

/** Opens a one-time link as its owner and sets `password` (the link's host may be the configured public one). */
async function setPasswordThrough(page: Page, url: string, password: string) {
  await forgetSession(page);
  await page.goto(new URL(url).pathname);
  await page.getByLabel('Mật khẩu mới').fill(password);
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Thành công' })).toContainText('Đổi mật khẩu thành công.');
  await forgetSession(page);
}

/** The value of one of the totals' tiles. */
const tile = (page: Page, label: string) => page.getByTestId('viewer-totals').locator('div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');

/** The row headers (first column) of a table named `caption`. */
async function rowNames(page: Page, caption: string): Promise<string[]> {
  return (await page.getByRole('table', { name: caption }).getByRole('rowheader').allTextContents()).map((text) => text.trim());
}

/** Every cell of every sheet that looks like a mobile phone number (a parent's phone must never be in an export). */
const phonesIn = (sheets: { data: unknown[][] }[]) =>
  sheets.flatMap((sheet) => sheet.data.flat()).filter((cell) => typeof cell === 'string' && /^(\+?84|0)\d{9}$/.test(cell.replace(/[\s.]/g, '')));

test("before the results are published, the demo unit viewer sees its unit and reads so on Kết quả", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await logInWithForm(page, DEMO_UNIT_VIEWER);
  await expect(page).toHaveURL(/\/so-giao-duc$/);
  await expectLoaded(page);
  await expect(page.getByText(`Phạm vi: ${DEMO_UNIT_VIEWER.unit}`)).toBeVisible();
  expect(await rowNames(page, 'Số liệu theo quận/huyện')).toEqual([DEMO_UNIT_VIEWER.unit]);
  for (const unitOfSchool of await page.getByRole('table', { name: SCHOOLS_TABLE }).locator('tbody tr td:nth-child(2)').allTextContents()) {
    expect(unitOfSchool).toBe(DEMO_UNIT_VIEWER.unit);
  }
  await expectAccessible(page, 'the demo unit viewer, Tham gia');
  await page.getByRole('navigation', { name: 'Số liệu' }).getByRole('link', { name: 'Kết quả' }).click();
  await expect(page).toHaveURL(/\/so-giao-duc\/ket-qua$/);
  await expect(page.getByText('Kết quả cuộc thi chưa được công bố.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tải Excel' })).toHaveCount(0);
  await expectAccessible(page, 'Kết quả before publication');
});

test("a viewer's menu leads to Số liệu; a family's or the organiser's screens are refused with one message, and /so-giao-duc to the other roles", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const viewer = await createViewer(page.request, [UNIT]);
  await logInWithForm(page, viewer);
  await expect(page).toHaveURL(/\/so-giao-duc$/);
  await expect(page.getByText(`Phạm vi: ${UNIT}`)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Menu chính' });
  await expect(nav.getByRole('link')).toHaveText(['Trang chủ', 'Thể lệ', 'Tin tức', 'Số liệu']);
  await expect(nav.getByRole('link', { name: 'Số liệu' })).toHaveAttribute('aria-current', 'page');
  await page.setViewportSize(TABLET);
  for (const path of ['/du-thi', '/bao-cao', '/tai-khoan', '/giay-chung-nhan/1']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Trang này không dành cho tài khoản của bạn' })).toBeVisible();
    await expect(page.getByRole('main').getByText(/Đây là tài khoản xem số liệu của cơ quan quản lý giáo dục\./)).toHaveCount(1);
  }
  await expectAccessible(page, 'a viewer on a family screen');
  await page.getByRole('link', { name: 'Xem số liệu' }).click();
  await expect(page).toHaveURL(/\/so-giao-duc$/);
  // The back office is not theirs either.
  await page.goto('/quan-tri/tai-khoan');
  await expect(page.getByRole('heading', { level: 1, name: 'Trang không tồn tại' })).toBeVisible();

  // The organiser on /so-giao-duc: the refusal, with its reason.
  await forgetSession(page);
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/so-giao-duc/ket-qua');
  await expect(page.getByRole('heading', { level: 1, name: 'Trang này không dành cho tài khoản của bạn' })).toBeVisible();
  await expect(page.getByText('Trang số liệu dành cho tài khoản xem số liệu của Sở Giáo dục và Đào tạo và các đơn vị.')).toBeVisible();
  await expectAccessible(page, 'the organiser on /so-giao-duc');
});

test('the participation is asked for again every 30 seconds while the page is visible', async ({ page }) => {
  await page.clock.install();
  await logInAs(page, await createViewer(page.request));
  await page.goto('/so-giao-duc');
  await expectLoaded(page);
  const asked: string[] = [];
  page.on('request', (request) => request.url().includes('/api/viewer/participation') && asked.push(request.url()));
  await page.clock.runFor(29_000);
  expect(asked).toEqual([]);
  await page.clock.runFor(2_000);
  await expect.poll(() => asked.length).toBe(1);
});

test.describe('on a server with the demo results published', () => {
  test.describe.configure({ mode: 'serial' });
  test.use({ baseURL: ownServerUrl(OFFSET) });

  let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  const province = { phone: uniquePhone(), name: 'Sở Giáo dục và Đào tạo', password: 'xem-tinh-456' };
  const unit = { phone: uniquePhone(), name: 'Phòng Giáo dục Sông Cầu', password: 'xem-don-vi-456' };
  /** The catalogue's units and the unit's schools, read from the public lists. */
  let units: { id: number; name: string }[] = [];
  let unitSchools: string[] = [];

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(240_000);
    server = await startOwnServer(OFFSET, 'viewers', { prepare: ['demo-results', '--publish'] });
    const request = await playwright.request.newContext({ baseURL: server.url });
    units = (await ok(await request.get('/api/districts'))).data;
    const unitId = units.find((u) => u.name === UNIT)!.id;
    unitSchools = (await ok(await request.get(`/api/schools?district_id=${unitId}`))).data.map((s: { name: string }) => s.name);
    await request.dispose();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the organiser creates a province viewer and a unit viewer from Tài khoản, each sets a password through its link', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);
    await logInAs(page, DEMO_ORGANISER);
    await page.goto('/quan-tri/tai-khoan');
    await expectLoaded(page);
    await page.getByRole('link', { name: 'Tạo tài khoản xem số liệu' }).click();
    await expect(page).toHaveURL(/\/quan-tri\/tai-khoan\/xem-so-lieu-moi$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tạo tài khoản xem số liệu' })).toBeVisible();
    await expectAccessible(page, 'the viewers form');

    // Nothing filled in: the shared schema's messages under the fields, nothing sent.
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Tạo tài khoản' }) });
    await form.getByRole('button', { name: 'Tạo tài khoản' }).click();
    await expect(form.getByText('Số điện thoại không hợp lệ.')).toBeVisible();
    await expect(form.getByText('Chọn phạm vi xem: toàn tỉnh hoặc đơn vị.')).toBeVisible();
    await expectAccessible(page, 'the viewers form with its errors');

    // The province viewer.
    await form.getByLabel('Số điện thoại').fill(province.phone);
    await form.getByLabel('Họ và tên').fill(province.name);
    await form.getByRole('radio', { name: 'Toàn tỉnh' }).check();
    await form.getByRole('button', { name: 'Tạo tài khoản' }).click();
    const provinceLink = (await page.getByRole('row', { name: new RegExp(province.phone) }).locator('code').textContent())!;
    expect(provinceLink).toMatch(/\/doi-mat-khau\/[A-Za-z0-9_-]{30,}$/);
    await expect(page.getByRole('button', { name: `Sao chép liên kết của ${province.phone}` })).toBeVisible();
    await expectAccessible(page, 'a province viewer created');

    // The unit viewer: a unit is required once "Đơn vị" is chosen; found by the filter without accents.
    await form.getByLabel('Số điện thoại').fill(unit.phone);
    await form.getByLabel('Họ và tên').fill(unit.name);
    await form.getByRole('radio', { name: /^Đơn vị/ }).check();
    await form.getByRole('button', { name: 'Tạo tài khoản' }).click();
    await expect(form.getByText('Chọn ít nhất một đơn vị.')).toBeVisible();
    await form.getByRole('searchbox', { name: /^Lọc theo tên/ }).fill('song cau');
    await expect(form.getByRole('checkbox')).toHaveCount(1);
    await form.getByRole('checkbox', { name: UNIT }).check();
    await expect(form.getByText('Đã chọn 1 đơn vị', { exact: false })).toBeVisible();
    await expect(form.getByText('Chọn ít nhất một đơn vị.')).toHaveCount(0);
    await expectAccessible(page, 'a unit chosen');
    await form.getByRole('button', { name: 'Tạo tài khoản' }).click();
    const unitLink = (await page.getByRole('row', { name: new RegExp(unit.phone) }).locator('code').textContent())!;
    expect(unitLink).toMatch(/\/doi-mat-khau\/[A-Za-z0-9_-]{30,}$/);

    await setPasswordThrough(page, provinceLink, province.password);
    await setPasswordThrough(page, unitLink, unit.password);
  });

  for (const viewport of [DESKTOP, TABLET]) {
    test(`the province viewer lands on /so-giao-duc and sees every unit and school (${viewport.width} px)`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await logInWithForm(page, province);
      await expect(page).toHaveURL(/\/so-giao-duc$/);
      await expectLoaded(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Số liệu cuộc thi' })).toBeVisible();
      await expect(page.getByText('Phạm vi: Toàn tỉnh')).toBeVisible();
      await expect(tile(page, 'Học sinh (theo danh mục)')).toHaveText(formatNumber(PROVINCE_PUPILS));
      await expect(page.getByRole('img', { name: /lượt bắt đầu thi|chưa có lượt thi/ })).toBeVisible();
      expect((await rowNames(page, 'Số liệu theo quận/huyện')).sort()).toEqual(units.map((u) => u.name).sort());
      await expect(page.getByRole('navigation', { name: 'Phân trang' })).toContainText('/ 13');
      await expectAccessible(page, `province participation ${viewport.width}`);

      // The schools' name filter.
      await page.getByRole('searchbox', { name: 'Tên trường' }).fill('Kim Đồng');
      await page.getByRole('button', { name: 'Tìm', exact: true }).click();
      await expect.poll(() => rowNames(page, SCHOOLS_TABLE)).toEqual(['Trường Tiểu học Kim Đồng']);

      // A unit of the province through the unit filter (a viewer of several units has it).
      await page.getByRole('searchbox', { name: 'Tên trường' }).fill('');
      await page.getByRole('button', { name: 'Tìm', exact: true }).click();
      await page.getByRole('combobox', { name: 'Quận/Huyện' }).selectOption({ label: UNIT });
      await expect.poll(async () => (await rowNames(page, SCHOOLS_TABLE)).sort()).toEqual([...unitSchools].sort());

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tải Excel' }).click()]);
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
      const sheets = await readExcelFile(await saved(download));
      expect(sheets.map((s) => s.sheet)).toEqual(['Đơn vị', 'Trường']);
      expect(phonesIn(sheets)).toEqual([]);

      // The results: every tier's list and the summaries, the province's schools all there.
      await page.getByRole('navigation', { name: 'Số liệu' }).getByRole('link', { name: 'Kết quả' }).click();
      await expect(page).toHaveURL(/\/so-giao-duc\/ket-qua$/);
      await expect(page.getByText(/^Kết quả được công bố ngày \d{2}\/\d{2}\/\d{4}\.$/)).toBeVisible();
      await expect(page.getByRole('heading', { name: /^Danh sách đoạt giải \(\d/ })).toBeVisible();
      expect(await page.getByRole('heading', { level: 3 }).count()).toBeGreaterThan(0);
      expect((await rowNames(page, 'Tổng hợp theo quận/huyện')).sort()).toEqual(units.map((u) => u.name).sort());
      expect(await rowNames(page, 'Tổng hợp theo trường')).toHaveLength(13);
      await expectAccessible(page, `province results ${viewport.width}`);
      const [results] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tải Excel' }).click()]);
      expect(results.suggestedFilename()).toMatch(/\.xlsx$/);
      const resultSheets = await readExcelFile(await saved(results));
      expect(resultSheets.map((s) => s.sheet)).toEqual(['Giải thưởng', 'Trường', 'Đơn vị']);
      expect(phonesIn(resultSheets)).toEqual([]);
    });

    test(`the unit viewer sees its unit's schools and figures only (${viewport.width} px)`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await logInWithForm(page, unit);
      await expect(page).toHaveURL(/\/so-giao-duc$/);
      await expectLoaded(page);
      await expect(page.getByText(`Phạm vi: ${UNIT}`)).toBeVisible();
      await expect(tile(page, 'Học sinh (theo danh mục)')).toHaveText(formatNumber(UNIT_PUPILS));
      expect(await rowNames(page, 'Số liệu theo quận/huyện')).toEqual([UNIT]);
      expect((await rowNames(page, SCHOOLS_TABLE)).sort()).toEqual([...unitSchools].sort());
      // One unit: no unit filter.
      await expect(page.getByRole('combobox', { name: 'Quận/Huyện' })).toHaveCount(0);
      await expectAccessible(page, `unit participation ${viewport.width}`);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tải Excel' }).click()]);
      const sheets = await readExcelFile(await saved(download));
      const schoolSheet = sheets.find((s) => s.sheet === 'Trường')!;
      const named = schoolSheet.data.slice(1).map((row) => row[0]);
      expect([...named].sort()).toEqual([...unitSchools].sort());
      expect(phonesIn(sheets)).toEqual([]);

      await page.getByRole('navigation', { name: 'Số liệu' }).getByRole('link', { name: 'Kết quả' }).click();
      await expect(page.getByText(/^Kết quả được công bố ngày/)).toBeVisible();
      expect(await rowNames(page, 'Tổng hợp theo quận/huyện')).toEqual([UNIT]);
      for (const school of await rowNames(page, 'Tổng hợp theo trường')) expect(unitSchools).toContain(school);
      // Every prize listed is of the unit's schools.
      const prizeSchools = await page.locator('.viewer-tier table tbody tr td:nth-child(3)').allTextContents();
      for (const school of prizeSchools) expect(unitSchools).toContain(school.trim());
      await expectAccessible(page, `unit results ${viewport.width}`);
    });
  }

  test('the organiser finds both viewers in the list by role, with their scope, and can lock one', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await logInAs(page, DEMO_ORGANISER);
    await page.goto('/quan-tri/tai-khoan');
    await page.getByRole('combobox', { name: 'Loại tài khoản' }).selectOption({ label: 'Xem đơn vị' });
    await page.getByRole('button', { name: 'Tìm', exact: true }).click();
    const table = page.getByRole('table', { name: 'Danh sách tài khoản' });
    await expect(table.getByRole('row', { name: new RegExp(unit.phone) })).toContainText(UNIT);
    await expect(table.getByRole('row', { name: new RegExp(province.phone) })).toHaveCount(0);
    await expect(table.getByRole('columnheader', { name: 'Phạm vi' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Loại tài khoản' }).selectOption({ label: 'Xem toàn tỉnh' });
    await page.getByRole('button', { name: 'Tìm', exact: true }).click();
    await expect(table.getByRole('row', { name: new RegExp(province.phone) })).toContainText('Toàn tỉnh');
    await expectAccessible(page, 'accounts filtered by viewer role');

    await table.getByRole('link', { name: province.phone }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Tài khoản ${province.phone}` })).toBeVisible();
    await expect(page.getByText('Xem toàn tỉnh', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Tạo liên kết đặt mật khẩu' })).toBeVisible();
    await page.getByRole('button', { name: 'Khoá tài khoản' }).click();
    await page.getByRole('alertdialog', { name: 'Khoá tài khoản?' }).getByRole('button', { name: 'Khoá', exact: true }).click();
    await expect(page.getByText(/^Đã khoá từ/)).toBeVisible();
    const login = await page.request.post('/api/login', { data: { phone: province.phone, password: province.password } });
    expect(login.status()).toBe(403);
    await page.getByRole('button', { name: 'Mở khoá tài khoản' }).click();
    await page.getByRole('alertdialog', { name: 'Mở khoá tài khoản?' }).getByRole('button', { name: 'Mở khoá', exact: true }).click();
    await expect(page.getByText(/^Hoạt động/)).toBeVisible();
  });

  test('the organiser imports viewers from a spreadsheet: a preview, then the links', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const phone = uniquePhone();
    const data = [
      ['Số điện thoại', 'Họ tên', 'Đơn vị'],
      [phone, 'Phòng Giáo dục Đồng Xanh', 'huyen dong xanh'],
    ].map((row) => row.map((value) => ({ value, type: String })));
    await logInAs(page, DEMO_ORGANISER);
    await page.goto('/quan-tri/tai-khoan/xem-so-lieu-moi');
    const importPanel = page.locator('.import-panel');
    const [template] = await Promise.all([page.waitForEvent('download'), importPanel.getByRole('link', { name: 'Tải tệp mẫu (mau-viewers.xlsx)' }).click()]);
    expect(template.suggestedFilename()).toBe('mau-viewers.xlsx');
    expect((await readExcelFile(await saved(template)))[0]!.data[0]).toEqual(['Số điện thoại', 'Họ tên', 'Đơn vị']);
    await importPanel.getByLabel('Chọn tệp').setInputFiles({
      name: 'xem-so-lieu.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await writeExcelFile(data).toBuffer()),
    });
    await importPanel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
    await expect(importPanel.getByText(/Tệp hợp lệ \(1 dòng\): sẽ thêm mới 1/)).toBeVisible();
    await expectAccessible(page, 'the viewers import preview');
    await importPanel.getByRole('button', { name: 'Lưu 1 dòng' }).click();
    await expect(importPanel.getByText('Đã lưu: thêm mới 1, cập nhật 0, giữ nguyên 0.')).toBeVisible();
    await expect(importPanel.getByRole('row', { name: new RegExp(phone) }).locator('code')).toHaveText(/\/doi-mat-khau\/[A-Za-z0-9_-]{30,}$/);
    await expectAccessible(page, 'the viewers imported');
  });
});
