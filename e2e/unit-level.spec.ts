// Issue 36.1 and 36.4: the organiser names the level under the province in Cài đặt cuộc thi; with
// "Xã/Phường" the parents' form says so, and a parent on a 360-px phone finds a ward by typing its
// name without accents ("hoa binh" finds "Phường Hoà Bình", "Hòa" the "Hoà" spelling), with the
// keys or a tap, and enrols the child. The setting is put back at the end (the worker's demo server
// is shared by the specs it runs); the ward and its school stay (after the demo's first two
// districts, whose places in the list other specs use).
import { DEMO_ORGANISER, chooseIn, expect, expectAccessible, logInAs, ok, otpFor, phoneViewport, storeSession, test, uniquePhone } from './fixtures';

const WARD = 'Phường Hoà Bình';
const SCHOOL = 'Trường Tiểu học Phường Hoà Bình';

test('the organiser switches to Xã/Phường; a parent on a phone finds a ward by typing without accents and enrols', async ({ page, context, request, baseURL, browser }) => {
  const organiser = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const headers = { authorization: `Bearer ${organiser.access_token}` };
  const { data: settings } = await ok(await request.get('/api/admin/contest', { headers }));
  expect(settings.unit_level).toBe('district');
  // A ward of the new map and its school (the demo's units are districts).
  const found = (await ok(await request.get(`/api/admin/districts?q=${encodeURIComponent(WARD)}`, { headers }))).data.items.find((d: { name: string }) => d.name === WARD);
  const wardId: number = found?.id ?? (await ok(await request.post('/api/admin/districts', { headers, data: { name: WARD } }))).data.id;
  if (!found) await ok(await request.post('/api/admin/schools', { headers, data: { district_id: String(wardId), name: SCHOOL, address: 'Số 1 đường Hoà Bình', pupil_count: '420' } }));

  try {
    // The organiser chooses the level on the settings page.
    const admin = await browser.newPage({ baseURL, locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' });
    await logInAs(admin, DEMO_ORGANISER);
    await admin.goto('/quan-tri/cuoc-thi');
    const levels = admin.getByRole('group', { name: 'Cấp hành chính dưới tỉnh' });
    await expect(levels.getByRole('radio', { name: /Quận\/Huyện/ })).toBeChecked();
    await levels.getByRole('radio', { name: /Xã\/Phường/ }).check();
    await expectAccessible(admin, 'quan-tri/cuoc-thi, cấp hành chính');
    await admin.getByRole('button', { name: 'Lưu cài đặt cuộc thi' }).click();
    await expect(admin.getByText('Đã lưu cài đặt cuộc thi.')).toBeVisible();
    // The back office says it at once, on this page load too.
    await admin.getByRole('link', { name: 'Danh mục trường, lớp' }).first().click();
    await expect(admin.getByRole('heading', { name: 'Xã/Phường', exact: true })).toBeVisible();
    await expect(admin.getByRole('columnheader', { name: 'Xã/Phường' }).first()).toBeVisible();
    await admin.close();

    // A parent who has just registered, on a 360-px phone.
    const phone = uniquePhone();
    const password = 'matkhau123';
    await ok(await request.post('/api/send-otp', { data: { phone, password, is_register: 1 } }));
    const registered = await ok(await request.post('/api/register', { data: { phone, password, otp: await otpFor(phone), consent: true } }));
    await page.setViewportSize(phoneViewport);
    await storeSession(context, baseURL!, { token: registered.access_token, user: registered.user });
    await page.goto('/tai-khoan');
    const card = page.getByRole('group', { name: 'Thí sinh 1' });
    const ward = card.getByRole('combobox', { name: 'Xã/Phường', exact: true });
    await expect(ward).toHaveAttribute('placeholder', 'Chọn xã/phường');
    await expect(card.getByRole('combobox', { name: 'Trường học' })).toHaveAttribute('placeholder', 'Chọn xã/phường trước');
    await expect(card.getByText('Huyện', { exact: true })).toHaveCount(0);

    // The form's own messages follow the level.
    await page.getByRole('button', { name: 'Hoàn thành' }).click();
    await expect(card.getByText('Xã/Phường là bắt buộc.')).toBeVisible();
    await expectAccessible(page, 'tai-khoan, xã/phường bắt buộc');

    await card.getByLabel('Họ và tên').fill('Đặng Thu Trang');
    // Typed without accents: the ward is found; the other spelling of its tone mark too.
    await ward.click();
    await ward.pressSequentially('hoa binh');
    const wards = card.getByRole('listbox', { name: 'Xã/Phường' });
    await expect(wards.getByRole('option')).toHaveText([WARD]);
    await expect(ward).toHaveAttribute('aria-expanded', 'true');
    await expectAccessible(page, 'tai-khoan, danh sách xã/phường đang mở');
    // The list stays on the phone's screen.
    const box = (await wards.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(phoneViewport.width);
    await ward.fill('Phường Hòa');
    await expect(wards.getByRole('option', { name: WARD })).toBeVisible();
    await ward.fill('hoa binh');
    // Chosen with the keys: the first match is under them, Enter chooses it.
    await expect(ward).toHaveAttribute('aria-activedescendant', /option-0$/);
    await ward.press('Enter');
    await expect(ward).toHaveValue(WARD);
    await expect(ward).toHaveAttribute('aria-expanded', 'false');

    // The schools are the ward's, chosen with a tap.
    await chooseIn(card, 'Trường học', SCHOOL);
    await expect(card.getByRole('combobox', { name: 'Trường học' })).toHaveValue(SCHOOL);
    await card.getByLabel('Nhóm lớp').selectOption({ index: 1 });
    await expect(card.getByLabel('Lớp', { exact: true }).locator('option')).not.toHaveCount(2);
    await card.getByLabel('Lớp', { exact: true }).selectOption({ index: 1 });
    await card.getByRole('checkbox', { name: /con đồng ý tham gia/ }).check();
    await page.getByRole('button', { name: 'Hoàn thành' }).click();
    await expect(page.locator('.notice-stack').getByText('Đã hoàn thành đăng ký', { exact: true })).toBeVisible();

    const profile = await ok(await request.get('/api/profile', { headers: { authorization: `Bearer ${registered.access_token}` } }));
    expect(profile.data.childrens[0]).toMatchObject({ fullname: 'Đặng Thu Trang', district_id: wardId, school: { name: SCHOOL } });
    await page.reload();
    await expect(card.getByRole('combobox', { name: 'Xã/Phường', exact: true })).toHaveValue(WARD);
    await expectAccessible(page, 'tai-khoan, thí sinh ở xã/phường');
  } finally {
    await ok(await request.put('/api/admin/contest', { headers, data: { unit_level: settings.unit_level } }));
  }
});
