// The integrity review page (/quan-tri/kiem-tra-ket-qua, decision 027). The organiser runs the
// screening on the demo (the run's figures; the shared demo server holds whatever exams other specs
// finished before, so the counts are not fixed); then, with the
// flags answered by page.route (the demo server's database is not reachable from the test, and
// the screening itself is checked by features/admin/integrity/integrity.api.test.ts), reviews a
// copied pair side by side and withholds a prize, which needs a reason.
import type { Page } from '@playwright/test';
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, test } from './fixtures';

test.use({ serviceWorkers: 'block' });

test('running the screening on the demo: the run described with its rate', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri');
  await page.getByRole('navigation', { name: 'Quản trị' }).getByRole('link', { name: 'Kiểm tra kết quả' }).click();
  await expect(page).toHaveURL(/\/quan-tri\/kiem-tra-ket-qua$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Kiểm tra kết quả' })).toBeVisible();
  // What the screening can and cannot see, measured: the organiser reads that no flag is not proof of no copying.
  await page.getByText('Kiểm tra này phát hiện được gì, và không phát hiện được gì').click();
  const power = page.getByRole('table', { name: 'Tỉ lệ cặp chép bài được phát hiện, theo thời điểm hiển thị đáp án đúng' });
  await expect(power.getByRole('columnheader')).toHaveText(['Cách chép', 'Đáp án hiện ngay sau khi nộp bài (mùa thi này)', 'Đáp án hiện sau khi đóng thi']);
  await expect(power.getByRole('row', { name: /Ngồi cạnh nhau, chép ở mọi lượt thi/ }).getByRole('cell')).toHaveText([/^97\s%$/, /^97\s%$/]);
  await expect(power.getByRole('row', { name: /Chép lại bài của bạn sau khi bạn đã nộp/ }).getByRole('cell')).toHaveText([/^0\s%$/, /^0\s%$/]);
  // The demo season shows the keys right after the submit (the specification's).
  await expect(page.getByTestId('integrity-keys-setting')).toHaveText('Mùa thi này hiển thị đáp án đúng ngay sau khi nộp bài (đổi trong Cài đặt cuộc thi).');
  await expect(page.getByText('không có cảnh báo không có nghĩa là chắc chắn không có gian lận', { exact: false })).toBeVisible();
  const rate = page.getByLabel('Tỉ lệ báo nhầm cho phép (%)');
  await expect(rate).toHaveValue('1');
  await rate.fill('20');
  await page.getByRole('button', { name: 'Chạy kiểm tra' }).click();
  await expect(page.getByText('Tỉ lệ báo nhầm cho phép từ 0,1 % đến 10 %.')).toBeVisible();
  await rate.fill('1');
  await page.getByRole('button', { name: 'Chạy kiểm tra' }).click();
  await expect(page.getByTestId('integrity-run')).toContainText(/\d+ bài thi, \d+ cặp bài được so sánh/);
  await expect(page.getByTestId('integrity-run')).toContainText('tỉ lệ báo nhầm cho phép 1 %');
  await expectAccessible(page, 'integrity review after a run');
});

const exam = (id: number, name: string, points: number, session: number, attempt = 1) => ({
  exam_id: id,
  contestant_id: (id % 2 === 1 ? 1 : 2) + 100,
  fullname: name,
  school: 'Trường Tiểu học Lê Lợi',
  class_name: '5A1',
  attempt,
  points,
  start_time: '2025-04-05T01:00:00.000Z',
  submitted_at: '2025-04-05T01:15:00.000Z',
  duration_seconds: 900,
  device: { session_id: session, user_agent: 'Mozilla/5.0 (Linux; Android 13)', ip: '203.0.113.7' },
  held: false,
});
const flag = {
  id: 7,
  kind: 'similarity',
  strength: 11.5,
  status: 'open',
  reason: null,
  decided_by: null,
  decided_at: null,
  contact: ['cùng lớp'],
  summary:
    'Trả lời theo sát ở 2 lượt thi làm cùng lúc: trong 40 câu hai bài của cùng lượt cùng trả lời, 19 câu một bài trả lời giống hệt bài kia trong vòng 30 giây sau bài kia; xác suất ngẫu nhiên p = 3,2 × 10⁻¹². 20 câu cả hai bài cùng có; 20 câu trả lời giống nhau, trong đó 8 câu sai (hoặc bỏ trống) giống nhau; ω = 6,1; xác suất ngẫu nhiên p = 4,0 × 10⁻⁹.',
  evidence: {
    tier: 'class',
    tests: ['in_step', 'similarity'],
    p: 3.2e-12,
    copier_exam_id: 2,
    in_step: {
      p: 3.2e-12,
      common: 40,
      events: 19,
      window_seconds: 30,
      copier_exam_id: 2,
      attempts: [
        { copier_exam_id: 2, source_exam_id: 1, common: 20, events: 14 },
        { copier_exam_id: 4, source_exam_id: 3, common: 20, events: 5 },
      ],
    },
    similarity: { p: 4e-9, omega: 6.1, common: 20, identical: 20, identical_wrong: 8, copier_exam_id: 2 },
  },
  exams: [exam(1, 'Nguyễn Văn An', 60, 41), exam(2, 'Trần Thị Bình', 60, 42)],
};
const answer = (text: string, right: boolean, at: string) => ({ drew: true, answer: text, right, first_at: at, answered_at: at });
const sheet = [
  // Trần Thị Bình's answer 7 s after Nguyễn Văn An's: in step.
  { question_id: 11, question: 'Nhân vật chính của truyện là ai?', key: 'Dế Mèn', identical: true, identical_wrong: false, in_step_seconds: 7, answers: [answer('Dế Mèn', true, '2025-04-05T01:01:05.000Z'), answer('Dế Mèn', true, '2025-04-05T01:01:12.000Z')] },
  { question_id: 12, question: 'Dế Mèn sống ở đâu?', key: 'Bờ ruộng', identical: true, identical_wrong: true, in_step_seconds: null, answers: [answer('Hang đá', false, '2025-04-05T01:03:00.000Z'), answer('Hang đá', false, '2025-04-05T01:04:00.000Z')] },
];

async function answerFlags(page: Page, posted: unknown[], flags: unknown[] = [flag]) {
  await page.route('**/api/admin/integrity', (route) =>
    route.fulfill({ json: { success: true, data: { running: false, run: { family_rate_percent: 1, exams: 4200, pairs: 98000, tests: 150000, threshold: 6.7e-8, seconds: 2.4, ran_at: '2025-04-14T02:00:00.000Z' } } } }),
  );
  await page.route('**/api/admin/integrity/flags', (route) => route.fulfill({ json: { success: true, data: flags } }));
  // The second attempts, taken side by side again: one answer in step, 5 s after.
  const more = [
    {
      exams: [exam(3, 'Nguyễn Văn An', 55, 41, 2), exam(4, 'Trần Thị Bình', 55, 42, 2)],
      sheet: [{ ...sheet[0]!, in_step_seconds: 5, answers: [answer('Dế Mèn', true, '2025-04-06T01:02:00.000Z'), answer('Dế Mèn', true, '2025-04-06T01:02:05.000Z')] }],
    },
  ];
  await page.route('**/api/admin/integrity/flags/7', (route) => route.fulfill({ json: { success: true, data: { ...flag, sheet, more } } }));
  await page.route('**/api/admin/integrity/flags/7/withhold', async (route) => {
    posted.push(route.request().postDataJSON());
    await route.fulfill({ json: { success: true } });
  });
}

test('a copied pair side by side, and withholding a prize with a reason', async ({ page }) => {
  const posted: unknown[] = [];
  await logInAs(page, DEMO_ORGANISER);
  await answerFlags(page, posted);
  await page.goto('/quan-tri/kiem-tra-ket-qua');
  await expect(page.getByRole('heading', { level: 2, name: 'Cảnh báo (1, 1 chưa xử lý)' })).toBeVisible();
  const card = page.getByRole('article', { name: /Bài làm giống nhau bất thường/ });
  await expect(card).toContainText('Liên hệ: cùng lớp.');
  await expect(card).toContainText('Trả lời theo sát ở 2 lượt thi làm cùng lúc: trong 40 câu hai bài của cùng lượt cùng trả lời, 19 câu một bài trả lời giống hệt bài kia trong vòng 30 giây sau bài kia');
  await expect(card).toContainText('trong đó 8 câu sai (hoặc bỏ trống) giống nhau');
  // The two exams side by side: names, times, device.
  await expect(card.getByText('Nguyễn Văn An', { exact: true })).toBeVisible();
  await expect(card.getByText('Trần Thị Bình', { exact: true })).toBeVisible();
  await expect(card.getByText('Lần đăng nhập số 41, địa chỉ 203.0.113.7, Mozilla/5.0 (Linux; Android 13)')).toBeVisible();
  await expect(card.getByText('Bắt đầu 08:00 05/04/2025, nộp 08:15 05/04/2025 (15 phút 00 giây)').first()).toBeVisible();

  await card.getByRole('button', { name: 'Xem hai bài làm' }).click();
  const table = card.getByRole('table', { name: /Bài làm đặt cạnh nhau: Nguyễn Văn An và Trần Thị Bình/ });
  await expect(table.getByRole('row', { name: /Dế Mèn sống ở đâu/ })).toContainText('Sai giống nhau');
  await expect(table.getByRole('row', { name: /Dế Mèn sống ở đâu/ })).not.toContainText('theo sát');
  const inStep = table.getByRole('row', { name: /Nhân vật chính/ });
  await expect(inStep).not.toContainText('Sai giống nhau');
  // Both answers with their second (Vietnam time), the in-step one marked with its delay.
  await expect(inStep).toContainText('Dế Mèn (đúng) – lưu lúc 08:01:05');
  await expect(inStep).toContainText('Dế Mèn (đúng) – lưu lúc 08:01:12');
  await expect(inStep).toContainText('Giống – theo sát, sau 7 giây');
  // The other attempt pooled by the in-step test, below.
  const again = card.getByRole('table', { name: 'Lượt thi khác cũng làm cùng lúc: lượt 2 của Nguyễn Văn An và lượt 2 của Trần Thị Bình.' });
  await expect(again.getByRole('row', { name: /Nhân vật chính/ })).toContainText('Dế Mèn (đúng) – lưu lúc 08:02:05');
  await expect(again.getByRole('row', { name: /Nhân vật chính/ })).toContainText('Giống – theo sát, sau 5 giây');
  await expectAccessible(page, 'integrity review, a flag with its sheets');

  await card.getByRole('button', { name: 'Tạm giữ giải của Trần Thị Bình' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tạm giữ giải của Trần Thị Bình?' });
  await expect(dialog).toContainText('không thấy lý do');
  await dialog.getByRole('button', { name: 'Tạm giữ giải' }).click();
  await expect(dialog.getByText('Vui lòng nhập lý do (ít nhất 3 ký tự).')).toBeVisible();
  expect(posted).toEqual([]);
  await dialog.getByLabel('Lý do (ghi vào nhật ký)').fill('Bài giống hệt bài của bạn cùng lớp, kể cả 8 câu sai');
  await dialog.getByRole('button', { name: 'Tạm giữ giải' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Áp dụng từ lần tính kết quả sau.')).toBeVisible();
  expect(posted).toEqual([{ contestant_id: 102, reason: 'Bài giống hệt bài của bạn cùng lớp, kể cả 8 câu sai' }]);
});

test('decided flags: the reason with its decision, readable (axe) at 1280 and 768 px; p-values as powers of ten', async ({ page }) => {
  const decided = { decided_by: 'Ban tổ chức', decided_at: '2025-04-14T03:00:00.000Z' };
  const dismissed = { ...flag, id: 8, status: 'dismissed', reason: 'Hai anh em học cùng nhau ở nhà, đã hỏi phụ huynh', ...decided };
  const withheld = { ...flag, id: 9, status: 'withheld', reason: 'Bài giống hệt bài của bạn cùng lớp, kể cả 8 câu sai', ...decided };
  await logInAs(page, DEMO_ORGANISER);
  await answerFlags(page, [], [dismissed, withheld]);
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/quan-tri/kiem-tra-ket-qua');
    await expect(page.getByRole('heading', { level: 2, name: 'Cảnh báo (2, 0 chưa xử lý)' })).toBeVisible();
    // The run's threshold and the evidence: "6,7 × 10⁻⁸", never "10^-8".
    await expect(page.getByTestId('integrity-run')).toContainText('p ≤ 6,7 × 10⁻⁸');
    const cards = page.getByRole('article', { name: /Bài làm giống nhau bất thường/ });
    await expect(cards).toHaveCount(2);
    await expect(cards.first()).toContainText('p = 3,2 × 10⁻¹²');
    await expect(page.locator('.integrity-dismissed > .muted')).toContainText('Đã bỏ qua bởi Ban tổ chức lúc 10:00 14/04/2025. Lý do: Hai anh em học cùng nhau');
    await expect(page.locator('.integrity-withheld > .muted')).toContainText('Đã tạm giữ giải bởi Ban tổ chức lúc 10:00 14/04/2025. Lý do: Bài giống hệt');
    await expectAccessible(page, `integrity review, decided flags at ${width} px`);
  }
});
