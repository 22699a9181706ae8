// Issue 42 (minor): two siblings on one login give a flag per pair. The review shows a family's
// flags together under the family's name and dismisses them with one reason. The flags are
// answered by page.route, as in admin-integrity.spec.ts (the demo server's database is not
// reachable from the test; the grouping and the dismissal themselves are checked by
// features/admin/integrity/family-flags.api.test.ts on both databases).
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, test } from './fixtures';

test.use({ serviceWorkers: 'block' });

const exam = (id: number, name: string) => ({
  exam_id: id,
  contestant_id: 200 + id,
  fullname: name,
  school: 'Trường Tiểu học Lê Lợi',
  class_name: '5A1',
  attempt: 1,
  points: 80,
  start_time: '2025-04-05T01:00:00.000Z',
  submitted_at: '2025-04-05T01:15:00.000Z',
  duration_seconds: 900,
  device: { session_id: 51, user_agent: 'Mozilla/5.0 (Linux; Android 13)', ip: '203.0.113.9' },
  held: false,
});
const group = { key: 'family:77', label: 'Cùng một gia đình (tài khoản 0912345678: Lê An, Lê Bình)' };
const flagOf = (id: number, kind: string, exams: ReturnType<typeof exam>[], status = 'open', reason: string | null = null) => ({
  id,
  kind,
  strength: 20 - id,
  status,
  reason,
  decided_by: status === 'open' ? null : 'Ban tổ chức',
  decided_at: status === 'open' ? null : '2025-04-14T02:00:00.000Z',
  contact: exams.length > 1 ? ['cùng tài khoản phụ huynh', 'cùng thiết bị'] : [],
  summary: 'Bằng chứng của cảnh báo.',
  evidence: {},
  exams,
  group,
});
const an = exam(1, 'Lê An');
const binh = exam(2, 'Lê Bình');
const chi = exam(3, 'Lê Chi');

test("a family's flags together, dismissed with one reason", async ({ page }) => {
  let dismissed: { flag_ids: number[]; reason: string } | undefined;
  const flags = () => {
    const status = dismissed ? 'dismissed' : 'open';
    return [
      flagOf(1, 'similarity', [an, binh], status, dismissed?.reason ?? null),
      flagOf(2, 'similarity', [an, chi], status, dismissed?.reason ?? null),
      flagOf(3, 'lockstep', [binh, chi], status, dismissed?.reason ?? null),
      // Another family's flag stays on its own.
      { ...flagOf(4, 'speed', [exam(4, 'Trần Dũng')]), group: { key: 'family:78', label: 'Cùng một gia đình (tài khoản 0987000111: Trần Dũng)' } },
    ];
  };
  await logInAs(page, DEMO_ORGANISER);
  await page.route('**/api/admin/integrity', (route) => route.fulfill({ json: { success: true, data: { running: false, run: null } } }));
  await page.route('**/api/admin/integrity/flags', (route) => route.fulfill({ json: { success: true, data: flags() } }));
  await page.route('**/api/admin/integrity/flags/dismiss', async (route) => {
    dismissed = route.request().postDataJSON();
    await route.fulfill({ json: { success: true } });
  });
  await page.goto('/quan-tri/kiem-tra-ket-qua');
  await expect(page.getByRole('heading', { level: 2, name: 'Cảnh báo (4, 4 chưa xử lý)' })).toBeVisible();

  const family = page.getByRole('region', { name: group.label });
  await expect(family).toContainText('3 cảnh báo, 3 chưa xử lý.');
  await expect(family.getByRole('article')).toHaveCount(3);
  await expect(page.getByRole('region', { name: /Trần Dũng/ })).toHaveCount(0);
  await expect(page.getByRole('article', { name: /Làm bài nhanh bất thường/ })).toBeVisible();
  await expectAccessible(page, "integrity review, a family's flags");

  await family.getByRole('button', { name: 'Bỏ qua 3 cảnh báo chưa xử lý của gia đình' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bỏ qua 3 cảnh báo chưa xử lý?' });
  await expect(dialog).toContainText(group.label);
  await dialog.getByRole('button', { name: 'Bỏ qua các cảnh báo' }).click();
  await expect(dialog.getByText('Vui lòng nhập lý do (ít nhất 3 ký tự).')).toBeVisible();
  await expectAccessible(page, "integrity review, dismissing a family's flags");
  await dialog.getByLabel('Lý do (ghi vào nhật ký)').fill('Ba chị em thi cùng lúc trên một điện thoại, đã gọi xác minh');
  await dialog.getByRole('button', { name: 'Bỏ qua các cảnh báo' }).click();
  await expect(dialog).toBeHidden();
  expect(dismissed).toEqual({ flag_ids: [1, 2, 3], reason: 'Ba chị em thi cùng lúc trên một điện thoại, đã gọi xác minh' });
  await expect(page.getByRole('heading', { level: 2, name: 'Cảnh báo (4, 1 chưa xử lý)' })).toBeVisible();
  await expect(family).toContainText('3 cảnh báo, 0 chưa xử lý.');
  await expect(family.getByRole('button', { name: /Bỏ qua .* của gia đình/ })).toHaveCount(0);
});
