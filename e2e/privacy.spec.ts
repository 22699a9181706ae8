// Issue 15 in the browser: the privacy notice from the footer, registration with the consent box,
// enrolment with the child's agreement, the parent's copy of the data, and deleting the account
// with the SMS code. The account made here is deleted at the end: no shared state is left.
import { readFileSync } from 'node:fs';
import { chooseIn, expect, expectAccessible, expectLoaded, otpFor, test, uniquePhone } from './fixtures';

test('the privacy notice is linked from the footer and names the organiser and the retention date', async ({ page }) => {
  await page.goto('/');
  await page.locator('footer').getByRole('link', { name: 'Chính sách bảo mật' }).click();
  await expect(page).toHaveURL(/\/chinh-sach-bao-mat$/);
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Chính sách bảo mật' })).toBeVisible();
  const organiser = (await page.locator('footer .footer-organiser').textContent())!.trim();
  await expect(page.locator('#main')).toContainText(organiser);
  await expect(page.locator('#main')).toContainText(/Phiên bản ngày \d{2}\/\d{2}\/\d{4}/);
  await expect(page.locator('#main')).toContainText(/tức là đến ngày \d{2}\/\d{2}\/\d{4}/);
  await expectAccessible(page, 'privacy notice');
});

test('a parent registers with the consent box, downloads their data and deletes the account with the SMS code', async ({ page }) => {
  const phone = uniquePhone();
  const password = 'matkhau123';

  await page.goto('/dang-ky');
  await expect(page.getByRole('link', { name: 'Đọc Chính sách bảo mật' })).toHaveAttribute('href', '/chinh-sach-bao-mat');
  await page.getByLabel('Số điện thoại').fill(phone);
  await page.getByLabel('Mật khẩu').fill(password);
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  await page.getByLabel(/Mã OTP/).fill(await otpFor(phone));
  const consent = page.getByRole('checkbox', { name: /Chính sách bảo mật/ });
  await expect(consent).not.toBeChecked();
  await page.getByRole('button', { name: 'Tạo tài khoản' }).click();
  await expect(page.getByText('Vui lòng đồng ý với Chính sách bảo mật để tiếp tục.')).toBeVisible();
  await expectAccessible(page, 'register without consent');
  await consent.check();
  await page.getByRole('button', { name: 'Tạo tài khoản' }).click();
  await expect(page).toHaveURL(/\/tai-khoan$/);

  // Enrolment: the child's agreement is asked on a new contestant.
  const card = page.getByRole('group', { name: 'Thí sinh 1' });
  await card.getByLabel('Họ và tên').fill('Lý Gia Hân');
  await chooseIn(card, 'Huyện', 1);
  await chooseIn(card, 'Trường học', 1);
  await card.getByLabel('Nhóm lớp').selectOption({ index: 1 });
  await expect(card.getByLabel('Lớp', { exact: true }).locator('option')).not.toHaveCount(2);
  await card.getByLabel('Lớp', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(card.getByText('Vui lòng xác nhận con đã đồng ý tham gia.')).toBeVisible();
  await card.getByRole('checkbox', { name: /con đồng ý tham gia/ }).check();
  await page.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(page.locator('.notice-stack').getByText('Đã hoàn thành đăng ký')).toBeVisible();
  // Saved: the box is not asked again.
  await expect(card.getByRole('checkbox', { name: /con đồng ý tham gia/ })).toHaveCount(0);

  // The copy: JSON and the readable page.
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tải dữ liệu của tôi' }).click()]);
  expect(json.suggestedFilename()).toBe('du-lieu-cua-toi.json');
  const data = JSON.parse(readFileSync((await json.path())!, 'utf8'));
  expect(data.account.phone).toBe(phone);
  expect(data.contestants.map((c: { fullname: string }) => c.fullname)).toEqual(['Lý Gia Hân']);
  expect(data.consents).toHaveLength(2);
  const [html] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tải bản dễ đọc (HTML)' }).click()]);
  expect(readFileSync((await html.path())!, 'utf8')).toContain('Lý Gia Hân');

  // Deleting the account: a code sent to the account's phone confirms it.
  await page.getByRole('button', { name: 'Xoá tài khoản' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Xoá tài khoản?' });
  await expectAccessible(page, 'delete account dialog');
  await dialog.getByRole('button', { name: 'Gửi mã xác nhận' }).click();
  await expect(dialog.getByText('Mã xác nhận xoá tài khoản đã được gửi đến số điện thoại của bạn.')).toBeVisible();
  const code = await otpFor(phone);
  await dialog.getByLabel(/Mã xác nhận/).fill(code === '000000' ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Xoá vĩnh viễn' }).click();
  await expect(dialog.getByText(/Mã OTP không đúng/)).toBeVisible();
  await dialog.getByLabel(/Mã xác nhận/).fill(code);
  await dialog.getByRole('button', { name: 'Xoá vĩnh viễn' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('.notice-stack').getByText('Tài khoản của bạn đã được xoá.')).toBeVisible();

  // Gone: the phone no longer logs in.
  const login = await page.request.post('/api/login', { data: { phone, password } });
  expect(login.status()).toBe(401);
});
