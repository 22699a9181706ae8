// The account forms on a phone (issue 10, items 9-14): the 'Gửi OTP' countdown, messages under the
// whole phone row, one error for an unregistered phone, the login and password popups, the
// class-group labels, the delete confirmation and the read-only phone.
import type { Locator, Page } from '@playwright/test';
import { test, expect, expectAccessible, otpFor, phoneViewport, uniquePhone } from './fixtures';

// These tests answer API calls with page.route: with the offline shell's service worker controlling
// the page, Chromium may send a page's request past the route, so the worker is kept out here.
test.use({ serviceWorkers: 'block' });

test.use({ viewport: phoneViewport });

const SENT = 'Mã OTP đã được gửi tới số điện thoại của bạn, có hiệu lực trong 10 phút.';
const countdown = (page: Page) => page.getByRole('button', { name: /^Gửi lại \(\d+ giây\)$/ });
const secondsOn = async (page: Page) => Number((await countdown(page).textContent())?.match(/\d+/)?.[0]);
/**
 * A popup closes after 1.5 s unless the pointer was moved onto it. The page's clock is held (installed
 * before the page loads) from before the popup opens until the pointer is on it, so the test reads
 * it at its own pace; then time runs again (the accessibility scan needs timers).
 */
const holdClock = (page: Page) => page.clock.pauseAt(Date.now() + 1_000);
async function restOn(page: Page, popup: Locator) {
  await page.mouse.move(1, 1);
  await popup.hover();
  await page.clock.resume();
}
const leave = (page: Page) => page.mouse.move(1, 1);

async function registerParent(page: Page, phone: string, password: string) {
  await page.goto('/dang-ky');
  await page.getByLabel('Số điện thoại').fill(phone);
  await page.getByLabel('Mật khẩu').fill(password);
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  await page.getByLabel(/Mã OTP/).fill(await otpFor(phone));
  await page.getByRole('checkbox', { name: /Chính sách bảo mật/ }).check();
  await page.getByRole('button', { name: 'Tạo tài khoản' }).click();
  await expect(page).toHaveURL(/\/tai-khoan$/);
}

test('Gửi OTP counts the server cooldown down on the button, keeps the sent message under the whole row', async ({ page }) => {
  await page.goto('/dang-ky');
  const phoneInput = page.getByLabel('Số điện thoại');
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  await expect(page.getByText('Số điện thoại không hợp lệ.')).toBeVisible();
  await expectAccessible(page, 'register, invalid phone');

  await phoneInput.fill(uniquePhone());
  await page.getByLabel('Mật khẩu').fill('matkhau123');
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  const sent = page.getByText(SENT);
  await expect(sent).toBeVisible();
  await expect(countdown(page)).toBeDisabled();
  const first = await secondsOn(page);
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(60);
  // It counts down, and the green message stays.
  await expect.poll(() => secondsOn(page)).toBeLessThan(first);
  await expect(sent).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The message sits under the input and the button, across the row's width.
  const [message, input, button] = await Promise.all([sent.boundingBox(), phoneInput.boundingBox(), countdown(page).boundingBox()]);
  expect(message!.y).toBeGreaterThanOrEqual(button!.y + button!.height);
  expect(Math.abs(message!.x - input!.x)).toBeLessThanOrEqual(1);
  expect(message!.x + message!.width).toBeGreaterThan(input!.x + input!.width);
  expect(button!.height).toBeGreaterThanOrEqual(44);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page, 'register, code sent');

  // After a reload the server still holds the cooldown: the button counts down what it says is
  // left and the page says a code was sent, instead of a red "wait 60 seconds".
  const phone = await phoneInput.inputValue();
  await page.reload();
  await page.getByLabel('Số điện thoại').fill(phone);
  await page.getByLabel('Mật khẩu').fill('matkhau123');
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  await expect(page.getByText(/^Mã OTP vừa được gửi tới số điện thoại này/)).toBeVisible();
  await expect(countdown(page)).toBeDisabled();
  expect(await secondsOn(page)).toBeLessThanOrEqual(60);
  await expect(page.getByText(/Vui lòng đợi \d+ giây/)).toHaveCount(0);
  await expectAccessible(page, 'register, cooldown after reload');
});

test('an unregistered phone on the forgot-password screen: one error, under the field', async ({ page }) => {
  const unknown = uniquePhone();
  const text = 'Số điện thoại chưa được đăng ký tài khoản.';
  await page.goto('/quen-mat-khau');
  await page.getByLabel('Số điện thoại').fill(unknown);
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  await expect(page.getByText(text)).toHaveCount(1);
  await page.getByLabel(/Mã OTP/).fill('123456');
  await page.getByRole('button', { name: 'Gửi', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
  await expect(page.getByText(text)).toHaveCount(1);
  await expect(page.locator('.notice-stack .notice')).toHaveCount(0);
  await expectAccessible(page, 'forgot password, unregistered phone');
});

test('a failed login shows the spec popup "Đăng nhập thất bại", which closes by itself', async ({ page }) => {
  await page.clock.install();
  await page.goto('/dang-nhap');
  await page.getByLabel('Số điện thoại').fill('0901000001');
  await page.getByLabel('Mật khẩu').fill('sai-mat-khau');
  await holdClock(page);
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Đăng nhập thất bại' });
  await expect(dialog).toContainText('Số điện thoại hoặc mật khẩu không đúng.');
  await expect(page.locator('.notice-stack .notice')).toHaveCount(0);
  await restOn(page, dialog);
  await expectAccessible(page, 'login failure popup');
  await expect(dialog).toBeVisible();
  await leave(page);
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Mật khẩu')).toBeFocused();
});

test('profile and password on a phone: labelled class groups, a confirmed delete, a locked phone, the password popups', async ({ page }) => {
  const phone = uniquePhone();
  await registerParent(page, phone, 'matkhau123');

  // The read-only phone looks like the locked fields and says why.
  const phoneField = page.getByLabel('Số điện thoại');
  await expect(phoneField).toHaveValue(phone);
  await expect(phoneField).toHaveAttribute('readonly', '');
  await expect(page.getByText('Không thể thay đổi số điện thoại của tài khoản.')).toBeVisible();
  const card1 = page.getByRole('group', { name: 'Thí sinh 1' });
  const lockedBackground = await card1.getByRole('combobox', { name: 'Trường học' }).evaluate((el) => getComputedStyle(el).backgroundColor);
  await expect(card1.getByRole('combobox', { name: 'Trường học' })).toBeDisabled();
  expect(await phoneField.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(lockedBackground);

  // The class groups say their grades, as the home page does.
  await expect(card1.getByLabel('Nhóm lớp').locator('option')).toHaveText(['Chọn nhóm lớp', 'Nhóm 1 (Lớp 1 - 2)', 'Nhóm 2 (Lớp 3 - 4)', 'Nhóm 3 (Lớp 5)']);

  // Deleting a contestant asks first.
  await page.getByRole('button', { name: 'Thêm thí sinh' }).click();
  const card2 = page.getByRole('group', { name: 'Thí sinh 2' });
  await card2.getByLabel('Họ và tên').fill('Trần Bảo Anh');
  const remove = card2.getByRole('button', { name: 'Xoá thí sinh 2' });
  await remove.click();
  const confirm = page.getByRole('alertdialog', { name: 'Xoá thí sinh 2?' });
  await expect(confirm).toContainText('Trần Bảo Anh');
  await expectAccessible(page, 'delete contestant confirmation');
  await confirm.getByRole('button', { name: 'Không xoá' }).click();
  await expect(confirm).toBeHidden();
  await expect(card2).toBeVisible();
  await expect(remove).toBeFocused();
  await remove.click();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(card2).toBeVisible();
  await remove.click();
  await confirm.getByRole('button', { name: 'Xoá', exact: true }).click();
  await expect(card2).toHaveCount(0);
  await expectAccessible(page, 'profile after delete');

  // Changing the password: the popups 'Thất bại' and 'Thành công' (spec section 8).
  await page.clock.install();
  await page.goto('/doi-mat-khau');
  await page.route('**/api/customer/change-password', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'server_error', message: 'Lỗi' }) }),
  );
  await page.getByLabel('Mật khẩu hiện tại').fill('matkhau123');
  await page.getByLabel('Mật khẩu mới').fill('matkhau-moi-1');
  await holdClock(page);
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  const failed = page.getByRole('alertdialog', { name: 'Thất bại' });
  await expect(failed).toContainText('Đổi mật khẩu thất bại.');
  await restOn(page, failed);
  await expectAccessible(page, 'change password failure popup');
  await failed.getByRole('button', { name: 'Đóng' }).click();
  await expect(failed).toBeHidden();
  await expect(page).toHaveURL(/\/doi-mat-khau$/);

  await page.unroute('**/api/customer/change-password');
  await holdClock(page);
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  const done = page.getByRole('alertdialog', { name: 'Thành công' });
  await expect(done).toContainText('Đổi mật khẩu thành công.');
  await expect(page.getByLabel('Mật khẩu mới')).toHaveValue('');
  await restOn(page, done);
  await expectAccessible(page, 'change password success popup');
  await expect(page).toHaveURL(/\/doi-mat-khau$/);
  await leave(page);
  await expect(page).toHaveURL(/\/tai-khoan$/);
});
