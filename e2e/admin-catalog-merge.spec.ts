// Issue 23.1: two spellings of one district ("Hoà"/"Hòa" habits) are merged from the catalogue.
// The organiser finds the district typed without accents, opens "Gộp", sees what would move for
// the chosen district (schools moved, schools of one name merged, classes of one name with the
// teacher kept) before confirming, merges, then merges a school into another the same way.
import type { APIRequestContext } from '@playwright/test';
import { test, expect, expectAccessible, logInAs, DEMO_ORGANISER } from './fixtures';

async function organiserApi(request: APIRequestContext) {
  const login = await (await request.post('/api/login', { data: DEMO_ORGANISER })).json();
  const headers = { authorization: `Bearer ${login.access_token}` };
  return async <T = { id: number }>(path: string, data: unknown): Promise<T> => {
    const response = await request.post(`/api/admin${path}`, { headers, data });
    const body = await response.json();
    expect(response.ok(), JSON.stringify(body)).toBe(true);
    return body.data as T;
  };
}

test('the organiser merges a district into another and a school into another, seeing what moves first', async ({ page, request }) => {
  const sfx = String(Date.now()).slice(-6);
  // Districts of their own that sort after the demo ones (specs that pick the first district keep theirs).
  const fromName = `Xã Gộp Cũ ${sfx}`;
  const intoName = `Xã Gộp Mới ${sfx}`;
  const twinFrom = `Trường Tiểu học Hoà An ${sfx}`;
  const twinInto = `Trường Tiểu học Hòa An ${sfx}`;
  const alone = `Trường Tiểu học Sông Lô ${sfx}`;
  const post = await organiserApi(request);
  const from = await post('/districts', { name: fromName });
  const into = await post('/districts', { name: intoName });
  const a = await post('/schools', { district_id: from.id, name: twinFrom, address: '', pupil_count: 300 });
  const b = await post('/schools', { district_id: from.id, name: alone, address: '', pupil_count: 200 });
  const c = await post('/schools', { district_id: into.id, name: twinInto, address: '', pupil_count: 400 });
  await post('/class-teachers', { school_id: a.id, class_name: '4A', teacher_name: 'Cô Vân' });
  await post('/class-teachers', { school_id: c.id, class_name: '4A', teacher_name: 'Thầy Sơn' });
  await post('/class-teachers', { school_id: b.id, class_name: '3C', teacher_name: 'Cô Thu' });

  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/danh-muc');
  const districts = page.getByRole('region', { name: 'Quận/Huyện', exact: true });
  // Found typed without accents (issue 23.13).
  await districts.getByLabel('Tìm quận/huyện').fill(`xa gop cu ${sfx}`);
  await districts.getByRole('button', { name: 'Tìm' }).click();
  await expect(districts.getByRole('row').filter({ hasText: fromName })).toHaveCount(1);
  await districts.getByRole('button', { name: `Gộp ${fromName} vào quận/huyện khác` }).click();

  const dialog = page.getByRole('dialog', { name: `Gộp quận/huyện ${fromName}` });
  await expect(dialog).toContainText('Chọn quận/huyện gộp vào để xem những gì sẽ chuyển.');
  await dialog.getByRole('button', { name: 'Gộp quận/huyện' }).click();
  await expect(dialog.getByText('Vui lòng chọn nơi gộp vào.')).toBeVisible();

  await dialog.getByLabel('Gộp vào quận/huyện').selectOption({ label: intoName });
  await expect(dialog.getByRole('list', { name: 'Trường chuyển sang' })).toHaveText(alone);
  const joined = dialog.getByRole('list', { name: 'Trường trùng tên được gộp' });
  await expect(joined).toContainText(`${twinFrom} → ${twinInto}: 0 thí sinh, 0 tài khoản quản trị trường, 0 giáo viên lớp chuyển sang.`);
  await expect(joined).toContainText(`Lớp 4A: học sinh hai trường thành một lớp, giáo viên Thầy Sơn (thay cho Cô Vân của ${twinFrom}).`);
  await expect(dialog).toContainText(`Từ ${fromName} sang ${intoName}: 0 thí sinh, 0 tài khoản quản trị trường, 2 giáo viên lớp.`);
  await expectAccessible(page, 'catalogue, merging a district');
  await dialog.getByRole('button', { name: 'Gộp quận/huyện' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${fromName} đã được gộp.`)).toBeVisible();

  // One district is left, with both schools.
  await districts.getByLabel('Tìm quận/huyện').fill(sfx);
  await districts.getByRole('button', { name: 'Tìm' }).click();
  const left = districts.getByRole('row').filter({ hasText: sfx });
  await expect(left).toHaveCount(1);
  await expect(left).toContainText(intoName);
  await expect(left.getByRole('cell').nth(1)).toHaveText('2');

  // A school into another: the dialog counts for the school chosen.
  const schools = page.getByRole('region', { name: 'Trường', exact: true });
  await schools.getByLabel('Tìm trường (tên, địa chỉ)').fill(`song lo ${sfx}`);
  await schools.getByRole('button', { name: 'Tìm' }).click();
  await expect(schools.getByRole('row').filter({ hasText: alone })).toContainText(intoName);
  await schools.getByRole('button', { name: `Gộp ${alone} vào trường khác` }).click();
  const schoolDialog = page.getByRole('dialog', { name: `Gộp trường ${alone}` });
  await expect(schoolDialog.getByLabel('Quận/Huyện của trường gộp vào')).toHaveValue(String(into.id));
  await schoolDialog.getByLabel('Gộp vào trường').selectOption({ label: twinInto });
  const moving = schoolDialog.getByRole('list', { name: 'Những gì sẽ chuyển' });
  await expect(moving).toContainText('0 thí sinh và 0 bài thi của các em');
  await expect(moving).toContainText('1 giáo viên lớp');
  await expect(schoolDialog).toContainText(`Từ ${alone} (${intoName}) sang ${twinInto} (${intoName}) sẽ chuyển:`);
  await schoolDialog.getByRole('button', { name: 'Gộp trường' }).click();
  await expect(schoolDialog).toBeHidden();
  await expect(page.getByText(`${alone} đã được gộp.`)).toBeVisible();
  await schools.getByLabel('Tìm trường (tên, địa chỉ)').fill(sfx);
  await schools.getByRole('button', { name: 'Tìm' }).click();
  await expect(schools.getByRole('row').filter({ hasText: sfx })).toHaveCount(1);
  await expect(schools.getByRole('row').filter({ hasText: sfx })).toContainText(twinInto);
});
