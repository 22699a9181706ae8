// Issue 13, certificates in the back office: a family's participation certificate is drawn by the
// background job (not on the family's request); the organiser follows the drawing at
// /quan-tri/giay-chung-nhan, finds the certificate by the child's name, revokes it with a reason,
// the public verification page says it was revoked (without the reason), and the family is
// issued a new certificate with a new code.
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANISER, expect, expectAccessible, expectLoaded, logInAs, ok, otpFor, registerFamily, test } from './fixtures';


/** A parent registered through the API with one contestant of the demo school, who finished one exam. */
async function familyWithFinishedExam(request: APIRequestContext, childName: string) {
  const family = await registerFamily(request, childName);
  const { headers, childId } = family;
  const books = await ok(await request.get(`/api/children/${childId}/books`, { headers }));
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: books.data[0].id, child_id: childId } }));
  const taking = await ok(await request.get(`/api/examing?book_id=${started.book_id}&child_id=${childId}&slug_exam=${started.slug}`, { headers }));
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: started.exam_id, slug: started.slug, answers, prediction: 10, seq: 1 } }));
  return family;
}

test('the organiser follows the drawing, revokes a certificate, and its verification says so', async ({ page, browser, request }) => {
  const childName = `Đoàn Thị Thu Hà ${Date.now() % 100000}`;
  const family = await familyWithFinishedExam(request, childName);
  // The family's page issues the participation certificate; its PDF is left to the background job.
  const certificates = await ok(await request.get(`/api/chilren-certificate?child_id=${family.childId}`, { headers: family.headers }));
  const code: string = certificates.data.certificates[0].code;

  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/giay-chung-nhan');
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Giấy chứng nhận' })).toBeVisible();
  const progress = page.getByRole('region', { name: 'Tiến độ vẽ giấy chứng nhận' });
  await expect(progress.getByText('Tổng số')).toBeVisible();
  await expect(progress.getByText('Đã sẵn sàng')).toBeVisible();

  // Found by the child's name; drawn by the job within a few seconds (the list says "Sẵn sàng").
  const search = page.getByRole('search', { name: 'Tìm giấy chứng nhận' });
  await search.getByLabel('Mã chứng nhận hoặc tên người nhận').fill(childName);
  const row = page.getByRole('row', { name: new RegExp(code) });
  await expect(async () => {
    await search.getByRole('button', { name: 'Tìm' }).click();
    await expect(row.getByRole('cell', { name: 'Sẵn sàng' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // The progress counts it among the ready ones and shows a drawing rate.
  await expect(progress.getByText(/giấy\/phút/)).toBeVisible();
  await expectAccessible(page);

  // Revoking needs a reason.
  await row.getByRole('button', { name: `Thu hồi ${code}` }).click();
  const dialog = page.getByRole('dialog', { name: `Thu hồi giấy chứng nhận ${code}` });
  await dialog.getByRole('button', { name: 'Thu hồi' }).click();
  await expect(dialog.getByText('Vui lòng nhập lý do thu hồi.')).toBeVisible();
  await dialog.getByLabel('Lý do thu hồi (chỉ Ban tổ chức xem được)').fill('Gia đình báo nhập sai tên con');
  await dialog.getByRole('button', { name: 'Thu hồi' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText(/Đã thu hồi ngày \d\d\/\d\d\/\d{4}/)).toBeVisible();
  await expect(row.getByText('Gia đình báo nhập sai tên con')).toBeVisible();
  // Its replacement is issued at once: the list names its new code, which the job draws within seconds.
  const replacement = (await row.getByText(/Giấy mới: /).textContent())!.replace(/.*Giấy mới: /, '').trim();
  await expect(async () => {
    await search.getByRole('button', { name: 'Tìm' }).click();
    await expect(page.getByRole('row', { name: new RegExp(`^${replacement}`) }).getByRole('cell', { name: 'Sẵn sàng' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // The public verification, for anyone: revoked, with its date, and not the reason.
  const visitor = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await visitor.goto(`/xac-minh/${code}`);
  await expect(visitor.getByText('Giấy chứng nhận đã bị thu hồi')).toBeVisible();
  await expect(visitor.getByText(/Giấy chứng nhận này đã bị Ban tổ chức thu hồi và không còn giá trị\. Ngày thu hồi: \d\d\/\d\d\/\d{4}\./)).toBeVisible();
  await expect(visitor.getByText(childName)).toBeVisible();
  await expect(visitor.getByText('Gia đình báo nhập sai tên con')).toHaveCount(0);
  await expectAccessible(visitor);
  await visitor.close();

  // The old code no longer downloads; the family is issued a new certificate with a new code
  // (revoking voids a paper, it takes nothing away: decision 020) and its page says so.
  const after = await ok(await request.get(`/api/chilren-certificate?child_id=${family.childId}`, { headers: family.headers }));
  expect(after.data.certificates.map((c: { kind: string; code: string }) => [c.kind, c.code])).toEqual([['participation', replacement]]);
  expect((await request.get(`/api/certificates/${code}/pdf`, { headers: family.headers })).status()).toBe(410);
  const parent = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await logInAs(parent, { phone: family.phone, password: family.password });
  await parent.goto(`/giay-chung-nhan/${family.childId}`);
  await expect(parent.getByRole('note')).toContainText(`mã ${code} đã được Ban tổ chức thu hồi`);
  await expect(parent.getByRole('note')).toContainText('Giấy chứng nhận mới được cấp lại với mã mới ở dưới.');
  await expect(parent.getByText(after.data.certificates[0].code)).toBeVisible();
  await expectAccessible(parent);
  await parent.close();
});

test("a family's deletion: the dialog says what becomes of the certificates, and their codes still verify without the name", async ({ page, browser, request }) => {
  const childName = `Vương Minh Khôi ${Date.now() % 100000}`;
  const family = await familyWithFinishedExam(request, childName);
  const certificates = await ok(await request.get(`/api/chilren-certificate?child_id=${family.childId}`, { headers: family.headers }));
  const code: string = certificates.data.certificates[0].code;

  await page.setViewportSize({ width: 360, height: 640 });
  await logInAs(page, family);
  await page.goto('/tai-khoan');
  await expectLoaded(page);
  await page.getByRole('button', { name: 'Xoá tài khoản' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Xoá tài khoản?' });
  await expect(dialog.getByText(/Giấy chứng nhận của con vẫn tra cứu được bằng mã, nhưng không còn tên của con/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Gửi mã xác nhận' }).click();
  await expect(dialog.getByText('Mã xác nhận xoá tài khoản đã được gửi đến số điện thoại của bạn.')).toBeVisible();
  await dialog.getByLabel(/Mã xác nhận/).fill(await otpFor(family.phone));
  await dialog.getByRole('button', { name: 'Xoá vĩnh viễn' }).click();
  await expect(page.locator('.notice-stack').getByText('Tài khoản của bạn đã được xoá.')).toBeVisible();

  const visitor = await browser.newPage({ viewport: { width: 360, height: 640 } });
  await visitor.goto(`/xac-minh/${code}`);
  await expect(visitor.getByText('Giấy chứng nhận đã được cấp')).toBeVisible();
  await expect(
    visitor.getByText(/Giấy chứng nhận này do Ban tổ chức cấp\. Thông tin của người nhận đã được xoá theo yêu cầu của gia đình\. Ngày xoá: \d\d\/\d\d\/\d{4}\./),
  ).toBeVisible();
  await expect(visitor.getByText('Không tìm thấy giấy chứng nhận', { exact: false })).toHaveCount(0);
  await expect(visitor.getByText(childName)).toHaveCount(0);
  await expect(visitor.getByText('Cấp cho')).toHaveCount(0);
  await expectAccessible(visitor);
  await visitor.close();
});
