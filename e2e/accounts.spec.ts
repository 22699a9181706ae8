// Accounts in the browser: register with the SMS code, enrol three contestants, log out and in,
// recover and change the password; the school administrator's menu and profile.
import type { Locator, Page } from '@playwright/test';
import { test, expect, expectAccessible, otpFor, uniquePhone, phoneViewport, chooseIn } from './fixtures';

const notice = (page: Page, text: string) => page.locator('.notice-stack').getByText(text, { exact: true });
/** A popup of spec section 8 (a modal with a title and the message). */
const popup = (page: Page, title: string) => page.getByRole('alertdialog', { name: title });
const card = (page: Page, n: number) => page.getByRole('group', { name: `Thí sinh ${n}` });
const visible = (locator: Locator) => locator.filter({ visible: true }).first();

async function logout(page: Page, label: string) {
  await visible(page.getByRole('button', { name: label })).click();
  await visible(page.getByRole('button', { name: 'Đăng xuất' })).click();
  await expect(page).toHaveURL(/\/dang-nhap$/);
  await expect(notice(page, 'Đăng xuất thành công')).toBeVisible();
}

async function login(page: Page, phone: string, password: string) {
  await page.goto('/dang-nhap');
  await page.getByLabel('Số điện thoại').fill(phone);
  await page.getByLabel('Mật khẩu').fill(password);
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
}

/** Fills a contestant card; the school and class lists load after their parent select. */
async function fillContestant(page: Page, n: number, fullname: string, options: { district?: number; group?: number; otherClass?: string } = {}) {
  const c = card(page, n);
  await c.getByLabel('Họ và tên').fill(fullname);
  await chooseIn(c, 'Huyện', options.district ?? 1);
  await chooseIn(c, 'Trường học', 1);
  await c.getByLabel('Nhóm lớp').selectOption({ index: options.group ?? 1 });
  await expect(c.getByLabel('Lớp', { exact: true }).locator('option')).not.toHaveCount(2);
  if (options.otherClass === undefined) {
    await c.getByLabel('Lớp', { exact: true }).selectOption({ index: 1 });
  } else {
    await c.getByLabel('Lớp', { exact: true }).selectOption({ label: 'Khác' });
    await c.getByLabel('Tên lớp').fill(options.otherClass);
  }
  // A new contestant: the parent confirms the child's agreement (issue 15).
  await c.getByRole('checkbox', { name: /con đồng ý tham gia/ }).check();
}

test('a parent registers, enrols three contestants, logs out and in, recovers and changes the password', async ({ page }) => {
  const phone = uniquePhone();
  const password = 'matkhau123';

  // Register -----------------------------------------------------------------------------------
  await page.goto('/dang-ky');
  const sendOtp = page.getByRole('button', { name: 'Gửi OTP' });
  await sendOtp.click();
  await expect(page.getByText('Số điện thoại không hợp lệ.')).toBeVisible();
  // After a failed check the button comes back after 1 s.
  await expect(sendOtp).toBeDisabled();
  await expect(sendOtp).toBeEnabled();

  const phoneInput = page.getByLabel('Số điện thoại');
  await expect(phoneInput).toHaveAttribute('type', 'tel');
  await expect(page.getByLabel(/Mã OTP/)).toHaveAttribute('inputmode', 'numeric');
  await expect(page.getByLabel(/Mã OTP/)).toHaveAttribute('autocomplete', 'one-time-code');
  await phoneInput.fill(phone);
  await page.getByLabel('Mật khẩu').fill('123');
  await sendOtp.click();
  await expect(page.getByText('Mật khẩu phải chứa ít nhất 6 ký tự.')).toBeVisible();
  await page.getByLabel('Mật khẩu').fill(password);
  await expect(sendOtp).toBeEnabled();
  await sendOtp.click();
  await expect(page.getByText('Mã OTP đã được gửi tới số điện thoại của bạn, có hiệu lực trong 10 phút.')).toBeVisible();
  const registerCode = await otpFor(phone);
  await page.getByLabel(/Mã OTP/).fill(registerCode === '000000' ? '111111' : '000000');
  // The privacy notice must be agreed to (issue 15): the box starts unticked.
  const consent = page.getByRole('checkbox', { name: /Chính sách bảo mật/ });
  await expect(consent).not.toBeChecked();
  await page.getByRole('button', { name: 'Tạo tài khoản' }).click();
  await expect(page.getByText('Vui lòng đồng ý với Chính sách bảo mật để tiếp tục.')).toBeVisible();
  await consent.check();
  await page.getByRole('button', { name: 'Tạo tài khoản' }).click();
  await expect(page.getByText(/^Mã OTP không đúng\. Bạn còn 4 lần thử\.$/)).toBeVisible();
  await page.getByLabel(/Mã OTP/).fill(registerCode);
  await page.getByRole('button', { name: 'Tạo tài khoản' }).click();
  await expect(page).toHaveURL(/\/tai-khoan$/);

  // Profile: three contestants with the cascading selects -------------------------------------
  await expect(page.getByRole('heading', { name: 'Thông tin đăng ký thí sinh dự thi' })).toBeVisible();
  await expect(page.getByLabel('Số điện thoại')).toHaveValue(phone);
  await expect(page.getByRole('navigation', { name: 'Tài khoản' }).getByRole('link', { name: 'Vào thi' })).toBeVisible();
  await expect(card(page, 1)).toBeVisible();
  await expect(card(page, 1).getByRole('button', { name: /Xoá/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(notice(page, 'Vui lòng kiểm tra lại thông tin thí sinh')).toBeVisible();
  await expect(card(page, 1).getByText('Họ và tên là bắt buộc.')).toBeVisible();
  await expect(card(page, 1).getByText('Huyện là bắt buộc.')).toBeVisible();

  await fillContestant(page, 1, 'Nguyễn Minh Khôi');
  await page.getByRole('button', { name: 'Thêm thí sinh' }).click();
  await fillContestant(page, 2, 'Nguyễn Thu Hà', { district: 2, group: 3, otherClass: '5A10BC' });
  await page.getByRole('button', { name: 'Thêm thí sinh' }).click();
  await expect(page.getByRole('button', { name: 'Thêm thí sinh' })).toHaveCount(0);

  // Changing the district clears the school; changing the class group clears the class.
  await fillContestant(page, 3, 'Nguyễn Gia Bảo', { group: 2 });
  await chooseIn(card(page, 3), 'Huyện', 2);
  await expect(card(page, 3).getByRole('combobox', { name: 'Trường học' })).toHaveValue('');
  await card(page, 3).getByLabel('Nhóm lớp').selectOption({ index: 1 });
  await expect(card(page, 3).getByLabel('Lớp', { exact: true })).toHaveValue('');
  await fillContestant(page, 3, 'Nguyễn Gia Bảo', { district: 2, group: 2 });

  await page.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(card(page, 2).getByText('Lớp không được quá 5 ký tự.')).toBeVisible();
  await card(page, 2).getByLabel('Tên lớp').fill('5A10');
  await page.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(notice(page, 'Đã hoàn thành đăng ký')).toBeVisible();

  await page.reload();
  await expect(card(page, 3).getByLabel('Họ và tên')).toHaveValue('Nguyễn Gia Bảo');
  await expect(card(page, 2).getByLabel('Tên lớp')).toHaveValue('5A10');
  await expect(card(page, 1).getByRole('combobox', { name: 'Trường học' })).not.toHaveValue('');
  await expect(page.getByRole('button', { name: 'Thêm thí sinh' })).toHaveCount(0);
  await expect(card(page, 2).getByRole('button', { name: 'Xoá thí sinh 2' })).toBeVisible();

  // The server refuses a fourth contestant whatever the page does.
  const fourth = await page.evaluate(async () => {
    const token = localStorage.getItem('token');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const profile = await (await fetch('/api/profile', { headers })).json();
    const childrens = profile.data.childrens.map((c: Record<string, unknown>) => ({
      id: c.id,
      fullname: c.fullname,
      district_id: c.district_id,
      school_id: c.school_id,
      class_group_id: c.class_group_id,
      class_room_id: c.class_room_id,
      class_room_other: c.class_room_other,
    }));
    const response = await fetch('/api/customer/profile', {
      method: 'POST',
      headers,
      body: JSON.stringify({ childrens: [...childrens, { ...childrens[0], id: undefined, child_consent: true }] }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(fourth).toMatchObject({ status: 400, body: { message: 'Mỗi tài khoản chỉ được đăng ký tối đa 3 thí sinh.' } });

  // Log out and in ------------------------------------------------------------------------------
  await logout(page, phone);
  await login(page, phone, 'sai-mat-khau');
  await expect(popup(page, 'Đăng nhập thất bại')).toContainText('Số điện thoại hoặc mật khẩu không đúng.');
  await expect(popup(page, 'Đăng nhập thất bại')).toBeHidden();
  await login(page, phone, password);
  await expect(page).toHaveURL(/\/tai-khoan$/);
  await expect(card(page, 1).getByLabel('Họ và tên')).toHaveValue('Nguyễn Minh Khôi');

  // Logged in: login and register send to the profile after 1 s.
  await page.goto('/dang-ky');
  await expect(notice(page, 'Bạn đã đăng nhập.')).toBeVisible();
  await expect(page).toHaveURL(/\/tai-khoan$/);

  // Forgot password, then a new password ---------------------------------------------------------
  await logout(page, phone);
  await page.goto('/quen-mat-khau');
  await expect(page.getByRole('heading', { name: 'Quên mật khẩu' })).toBeVisible();
  await page.getByLabel('Số điện thoại').fill(phone);
  await page.getByRole('button', { name: 'Gửi OTP' }).click();
  await expect(page.getByText('Mã OTP đã được gửi tới số điện thoại của bạn, có hiệu lực trong 10 phút.')).toBeVisible();
  const recoveryCode = await otpFor(phone);
  await page.getByLabel(/Mã OTP/).fill(recoveryCode);
  await page.getByRole('button', { name: 'Gửi', exact: true }).click();
  await expect(notice(page, 'Xác thực thành công. Vui lòng đặt mật khẩu mới.')).toBeVisible();
  await expect(page).toHaveURL(/\/doi-mat-khau$/);

  await expect(page.getByRole('navigation', { name: 'Tài khoản' }).getByRole('link', { name: 'Đổi mật khẩu' })).toHaveAttribute('aria-current', 'page');
  // The code proved the phone: the forgotten password is not asked for.
  await expect(page.getByLabel('Mật khẩu hiện tại')).toHaveCount(0);
  await page.getByLabel('Mật khẩu mới').fill('123');
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  await expect(page.getByText('Mật khẩu phải chứa ít nhất 6 ký tự.')).toBeVisible();
  await page.getByLabel('Mật khẩu mới').fill('matkhau-moi-456');
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  await expect(popup(page, 'Thành công')).toContainText('Đổi mật khẩu thành công.');
  await expect(page.getByLabel('Mật khẩu mới')).toHaveValue('');
  await expect(page).toHaveURL(/\/tai-khoan$/);

  await logout(page, phone);
  await login(page, phone, password);
  await expect(popup(page, 'Đăng nhập thất bại')).toBeVisible();
  await expect(popup(page, 'Đăng nhập thất bại')).toBeHidden();
  await login(page, phone, 'matkhau-moi-456');
  await expect(page).toHaveURL(/\/tai-khoan$/);

  // Logged in with the password: changing it asks for the current one (a stolen session must not keep the account).
  await page.goto('/doi-mat-khau');
  const current = page.getByLabel('Mật khẩu hiện tại');
  await expect(current).toHaveAttribute('autocomplete', 'current-password');
  await page.getByLabel('Mật khẩu mới').fill('matkhau-moi-789');
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  await expect(page.getByText('Vui lòng nhập mật khẩu hiện tại.')).toBeVisible();
  await current.fill('khong-phai-mat-khau');
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  const failed = popup(page, 'Thất bại');
  await expect(failed).toContainText('Đổi mật khẩu thất bại.');
  await failed.getByRole('button', { name: 'Đóng' }).click();
  await expect(page.getByText('Mật khẩu hiện tại không đúng.')).toBeVisible();
  await current.fill('matkhau-moi-456');
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  await expect(popup(page, 'Thành công')).toContainText('Đổi mật khẩu thành công.');
  await expect(page).toHaveURL(/\/tai-khoan$/);
});

test('the school administrator sees the admin menu and the account-only profile', async ({ page }) => {
  await login(page, '0901000001', 'truong123');
  await expect(page).toHaveURL(/\/tai-khoan$/);
  await expect(page.getByRole('heading', { name: 'Thông tin tài khoản' })).toBeVisible();
  await expect(page.getByText('Đây là tài khoản admin trường học.')).toBeVisible();
  await expect(page.locator('#main').getByText('Trường Tiểu học Lê Lợi', { exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: /Thí sinh/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Thêm thí sinh' })).toHaveCount(0);
  const side = page.getByRole('navigation', { name: 'Tài khoản' });
  await expect(side.getByRole('link', { name: 'Tài khoản' })).toBeVisible();
  await expect(side.getByRole('link', { name: 'Đổi mật khẩu' })).toBeVisible();
  await expect(side.getByRole('link', { name: 'Vào thi' })).toHaveCount(0);

  // The header: the name instead of the phone, 'Báo cáo' instead of 'Vào thi'.
  const banner = page.getByRole('banner');
  await expect(visible(banner.getByRole('link', { name: 'Báo cáo' }))).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Vào thi' })).toHaveCount(0);
  await expect(visible(banner.getByRole('button', { name: 'Quản trị Trường Tiểu học Lê Lợi' }))).toBeVisible();
});

test('protected account screens send a visitor to the login page; a used-up link says so', async ({ page }) => {
  await page.goto('/tai-khoan');
  await expect(notice(page, 'Vui lòng đăng nhập để xem thông tin cá nhân.')).toBeVisible();
  await expect(page).toHaveURL(/\/dang-nhap$/);
  await page.goto('/doi-mat-khau');
  await expect(notice(page, 'Vui lòng đăng nhập.')).toBeVisible();
  await expect(page).toHaveURL(/\/dang-nhap$/);

  await page.goto('/doi-mat-khau/khong-phai-lien-ket-that-0123456789');
  await expect(page.getByRole('alert').getByText('Liên kết đổi mật khẩu không hợp lệ, đã được sử dụng hoặc đã hết hạn.')).toBeVisible();
  // Only the error and the way to a new password: no form that cannot work.
  await expect(page.getByLabel('Mật khẩu mới')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cập nhật' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Tài khoản', exact: true }).first()).toBeVisible();
  await expectAccessible(page, 'a used-up reset link');
  await page.getByRole('link', { name: 'Đặt lại mật khẩu bằng mã OTP' }).click();
  await expect(page).toHaveURL(/\/quen-mat-khau$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: phoneViewport });
  test('the login form fits 360 px with 44 px targets', async ({ page }) => {
    await page.goto('/dang-nhap');
    const button = page.getByRole('button', { name: 'Đăng nhập' });
    const box = await button.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
