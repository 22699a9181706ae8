// Issue 37 part 1 from the browser: the organiser writes a message to the parents of one school,
// is told when it is too long for one SMS, previews the count and the cost, sends, and reads the
// report; the family receives it (the log driver's outbox) and opts out from its link.
import { readFileSync } from 'node:fs';
import readExcelFile from 'read-excel-file/node';
import { test, expect, DEMO_ORGANISER, expectAccessible, expectLoaded, logInAs, ok, otpFor, readOutbox, uniquePhone, phoneViewport } from './fixtures';
import type { APIRequestContext } from '@playwright/test';

/** A family with one child at the last school of the last unit (a school no other spec uses). */
async function familyAtLastSchool(request: APIRequestContext) {
  const phone = uniquePhone();
  await ok(await request.post('/api/send-otp', { data: { phone, password: 'matkhau123', is_register: 1 } }));
  const registered = await ok(await request.post('/api/register', { data: { phone, password: 'matkhau123', otp: await otpFor(phone), consent: true } }));
  const headers = { authorization: `Bearer ${registered.access_token}` };
  const district = (await ok(await request.get('/api/districts'))).data.at(-1);
  const school = (await ok(await request.get(`/api/schools?district_id=${district.id}`))).data.at(-1);
  const group = (await ok(await request.get('/api/class-groups'))).data[0];
  const room = (await ok(await request.get(`/api/class-rooms?class_group_id=${group.id}`))).data[0];
  await ok(
    await request.post('/api/customer/profile', {
      headers,
      data: { phone, childrens: [{ fullname: 'Đỗ Minh Thư', district_id: district.id, school_id: school.id, class_group_id: group.id, class_room_id: room.id, child_consent: true }] },
    }),
  );
  return { phone, district: district.name as string, school: school.name as string };
}

test('the organiser sends a message to the parents of a school and reads its report; the family opts out from its link', async ({ page, request }) => {
  const family = await familyAtLastSchool(request);
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri');
  await page.getByRole('navigation', { name: 'Quản trị' }).getByRole('link', { name: 'Tin nhắn cho phụ huynh' }).click();
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Tin nhắn cho phụ huynh' })).toBeVisible();

  // A ready message fills the text; the counter counts it with the opt-out link.
  await page.getByLabel('Mẫu tin').selectOption({ label: 'Đã công bố kết quả' });
  await expect(page.getByLabel('Nội dung SMS')).toHaveValue('{cuoc_thi}: da cong bo ket qua. Xem tai {trang_web}');
  await expect(page.getByTestId('sms-counter')).toContainText('(không dấu) · 1 tin SMS');

  // With diacritics the same text takes two SMS: the counter says so, and so does the server.
  await page.getByLabel('Mẫu tin').selectOption({ label: 'Tự soạn' });
  await page.getByLabel('Nội dung SMS').fill('Kính gửi quý phụ huynh: kết quả cuộc thi đã được công bố');
  await expect(page.getByTestId('sms-counter')).toContainText('(có dấu) · 2 tin SMS');
  await page.getByLabel('Người nhận', { exact: true }).selectOption({ label: 'Phụ huynh của một trường' });
  await page.getByLabel('Đơn vị', { exact: true }).selectOption({ label: family.district });
  await page.getByLabel('Trường', { exact: true }).selectOption({ label: family.school });
  await page.getByRole('button', { name: 'Xem trước số người nhận và chi phí' }).click();
  await expect(page.getByText(/cần 2 tin SMS; chỉ được gửi 1 tin/).first()).toBeVisible();

  await page.getByLabel('Nội dung SMS').fill('Kinh gui phu huynh: ket qua cuoc thi da duoc cong bo. Xem tai {trang_web}');
  await page.getByLabel('Thông báo khẩn: được gửi cả trong khung 21:00–07:00').check();
  await page.getByRole('button', { name: 'Xem trước số người nhận và chi phí' }).click();
  await expect(page.getByTestId('preview-recipients')).toHaveText('1 phụ huynh');
  await expect(page.getByTestId('preview-cost')).toHaveText('800 đ');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Gửi tới 1 phụ huynh' }).click();
  await expect(page.getByText('Đã xếp tin nhắn vào hàng đợi gửi')).toBeVisible();

  // The report fills in as the queue sends.
  const row = page.getByRole('table', { name: 'Các đợt gửi tin nhắn' }).getByRole('row').filter({ hasText: 'Kinh gui phu huynh' });
  await expect(row.getByRole('cell').nth(3)).toHaveText('1', { timeout: 30_000 });
  await expect(row.getByRole('cell').nth(4)).toHaveText('0');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Tải .xlsx' }).click()]);
  const [sheet] = await readExcelFile(readFileSync((await download.path())!));
  expect(sheet!.data[1]!.slice(0, 4)).toEqual([family.phone, null, 'Đã gửi', 'SMS']);

  // The family's SMS ends with its link; the page changes nothing until its button is pressed.
  const sms = readOutbox().find((message) => message.phone === family.phone && message.message.startsWith('Kinh gui phu huynh'));
  const link = sms!.message.match(/Tu choi: \S+(\/tu-choi\/[A-Za-z0-9_-]{12})$/)![1]!;
  await page.setViewportSize(phoneViewport);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Từ chối nhận tin nhắn' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Không nhận tin nhắn nữa' }).click();
  await expect(page.getByText(/sẽ không nhận tin nhắn thông báo của Ban tổ chức nữa/)).toBeVisible();

  // The next message to that school reaches nobody: the send is refused with the reason.
  await page.goto('/quan-tri/tin-nhan');
  await page.getByLabel('Nội dung SMS').fill('Thong bao lan hai');
  await page.getByLabel('Người nhận', { exact: true }).selectOption({ label: 'Phụ huynh của một trường' });
  await page.getByLabel('Đơn vị', { exact: true }).selectOption({ label: family.district });
  await page.getByLabel('Trường', { exact: true }).selectOption({ label: family.school });
  await page.getByRole('button', { name: 'Xem trước số người nhận và chi phí' }).click();
  await expect(page.getByText('(bỏ qua 1 phụ huynh đã từ chối nhận tin)', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Gửi tới 0 phụ huynh' })).toBeDisabled();
});
