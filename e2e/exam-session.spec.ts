// A session ended elsewhere during an exam (the parent changes the password on another phone):
// the exam stays on screen, a login dialog comes over it with the time still running, nothing is
// lost, and after the login the answers reach the server.
import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, phoneViewport, test } from './fixtures';
import { chooseAnswer, logIn, navigatorItem, registerFamily, serverAnswers, startExamByApi, type Family } from './exam-fixtures';

test.use({ viewport: phoneViewport });

/** Another phone: logs in and changes the password, which ends every other session. */
async function changePasswordElsewhere(request: APIRequestContext, family: Family, from: string, password: string): Promise<Family> {
  const login = await (await request.post('/api/login', { data: { phone: family.phone, password: from } })).json();
  expect(login.success).toBe(true);
  const changed = await request.post('/api/customer/change-password', {
    headers: { authorization: `Bearer ${login.access_token}` },
    data: { password, current_password: from },
  });
  expect(changed.ok()).toBe(true);
  return { ...family, token: login.access_token };
}

test('a session ended on another phone asks for the login over the running exam and then saves everything', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Hoàng Minh Châu');
  const exam = await startExamByApi(request, family);
  await logIn(context, baseURL!, family);
  const examUrl = `/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`;
  const onServer = serverAnswers(page);
  await page.goto(examUrl);

  await chooseAnswer(page, 0);
  await navigatorItem(page, 2).click();
  await chooseAnswer(page, 1);
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();
  await expect.poll(onServer).toBe(2);

  const newPassword = 'matkhaumoi456';
  await changePasswordElsewhere(request, family, 'matkhau123', newPassword);

  // The next answers meet a 401: the dialog comes over the exam, which stays where it is.
  for (const n of [3, 4]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 2);
  }
  const dialog = page.getByRole('dialog', { name: 'Phụ huynh vui lòng đăng nhập lại' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${examUrl}$`));
  await expect(dialog.getByText(/^Thời gian làm bài vẫn đang tính, còn lại (\d\d:)?\d\d:\d\d$/)).toBeVisible();
  await expect(page.locator('.exam-time time')).toBeVisible();
  await expect(dialog.getByLabel('Số điện thoại')).toHaveValue(family.phone);
  await expect(dialog.getByLabel('Mật khẩu')).toBeFocused();
  await expectAccessible(page, 'exam with the login dialog');

  // Escape loses nothing: the dialog stays, the answers are still on the screen.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  for (const n of [1, 2, 3, 4]) await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);

  // Tab stays inside the dialog.
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);

  // The old password is refused in place; the new one closes the dialog and saving carries on.
  await dialog.getByLabel('Mật khẩu').fill('matkhau123');
  await dialog.getByRole('button', { name: 'Đăng nhập và làm tiếp' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Đăng nhập thất bại.' })).toBeVisible();
  await expectAccessible(page, 'login dialog with a refused password');
  await dialog.getByLabel('Mật khẩu').fill(newPassword);
  await dialog.getByRole('button', { name: 'Đăng nhập và làm tiếp' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();
  await expect.poll(onServer).toBe(4);

  // And the exam goes on as before.
  await navigatorItem(page, 5).click();
  await chooseAnswer(page, 3);
  await expect.poll(onServer).toBe(5);
  await expect(page).toHaveURL(new RegExp(`${examUrl}$`));

  // Ended again, and the page reloaded: the dialog comes over the loading exam, then the exam
  // opens where the child was, with every answer.
  const third = 'matkhaumoi789';
  await changePasswordElsewhere(request, family, newPassword, third);
  await page.reload();
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${examUrl}$`));
  await dialog.getByLabel('Mật khẩu').fill(third);
  await dialog.getByRole('button', { name: 'Đăng nhập và làm tiếp' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.exam-card h2 .exam-question-number')).toHaveText('Câu 5');
  for (const n of [1, 2, 3, 4, 5]) await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
});
