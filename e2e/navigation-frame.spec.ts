// The page frame (issue 10, items 18, 20-23): /du-thi exam cards on a phone, the school
// administrator's whole name in the desktop header, the footer at the bottom of a short page,
// toasts below the header, and 44-px touch areas for the links inside sentences.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, phoneViewport, test } from './fixtures';
import { logIn, registerFamily, savedExam, startExamByApi, type Family } from './exam-fixtures';

const DEMO_SCHOOL_ADMIN = { phone: '0901000001', password: 'truong123', name: 'Quản trị Trường Tiểu học Lê Lợi' };

/**
 * The top of the first toast and the bottom of the header, read together in the page as soon as a
 * toast shows (it closes by itself after 2 s: a busy machine may not read it twice in time).
 */
async function toastAndHeaderEdges(page: Page) {
  const edges = await page.waitForFunction(() => {
    const toast = document.querySelector('.notice');
    const header = document.querySelector('header.site-header');
    return toast && header && { toastTop: toast.getBoundingClientRect().top, headerBottom: header.getBoundingClientRect().bottom };
  });
  return (await edges.jsonValue()) as { toastTop: number; headerBottom: number };
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, 'a visible box').not.toBeNull();
  return found!;
}

/** Answers every question of an exam started through the API and submits it. */
async function submitByApi(request: APIRequestContext, family: Family, exam: { slug: string; examId: number; bookId: number }) {
  const headers = { authorization: `Bearer ${family.token}` };
  const taking = await savedExam(request, family, exam);
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  const submitted = await request.post('/api/submit-exam', { headers, data: { exam_id: exam.examId, slug: exam.slug, answers, prediction: 1500, seq: 1 } });
  expect(submitted.ok(), await submitted.text()).toBe(true);
}

test.describe('on a phone', () => {
  test.use({ viewport: phoneViewport });

  test('/du-thi: one card per exam, labels on one line at the left, values at the right, 44-px buttons', async ({ page, context, request, baseURL }) => {
    const family = await registerFamily(request, 'Phạm Hoàng Bảo Khánh');
    await submitByApi(request, family, await startExamByApi(request, family));
    await startExamByApi(request, family); // a second one, in progress
    await logIn(context, baseURL!, family);
    await page.goto('/du-thi');

    const cards = page.locator('.exam-table tbody tr');
    await expect(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      const cardBox = await box(card);
      const rights: number[] = [];
      for (const cell of await card.locator('td').all()) {
        const label = (await cell.getAttribute('data-label'))!;
        const cellBox = await box(cell);
        // At least a touch target high; a label on two lines (or a value pushed under it) makes
        // a short cell taller than its 44-px button plus padding.
        expect(cellBox.height, label).toBeGreaterThanOrEqual(44);
        if (label !== 'Thí sinh') expect(cellBox.height, `${label} on one line`).toBeLessThanOrEqual(53);
        const value = cell.locator('a, span').first();
        if (await value.count()) {
          const valueBox = await box(value);
          rights.push(valueBox.x + valueBox.width);
        }
      }
      // Values and buttons end at the same right edge, inside the card.
      for (const right of rights) {
        expect(Math.abs(right - rights[0]!)).toBeLessThanOrEqual(1);
        expect(right).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      }
    }
    for (const name of ['Xem kết quả', 'Giấy chứng nhận', 'Tiếp tục thi']) {
      const button = page.locator('.exam-table').getByRole('link', { name });
      expect((await box(button)).height, name).toBeGreaterThanOrEqual(44);
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await expectAccessible(page, '/du-thi with exams');
  });

  test('a toast shows below the header: the logo and the menu button stay uncovered', async ({ page }) => {
    await page.goto('/du-thi'); // logged out: a toast, then the login page
    const { toastTop, headerBottom } = await toastAndHeaderEdges(page);
    expect(toastTop).toBeGreaterThanOrEqual(headerBottom);
    await expectAccessible(page, 'toast on a phone');
  });

  test('the hotline, the e-mail and Trang xác minh have 44-px touch areas', async ({ page, context, request, baseURL }) => {
    await page.goto('/the-le');
    const footer = page.locator('footer.site-footer');
    for (const link of [footer.locator('a[href^="tel:"]'), footer.locator('a[href^="mailto:"]')]) {
      await expect(link).toBeVisible();
      expect((await box(link)).height).toBeGreaterThanOrEqual(44);
    }
    // The contact lines do not overlap each other.
    const [tel, mail] = [await box(footer.locator('a[href^="tel:"]')), await box(footer.locator('a[href^="mailto:"]'))];
    expect(mail.y).toBeGreaterThanOrEqual(tel.y + tel.height);

    const family = await registerFamily(request, 'Đỗ Thu Hà');
    await submitByApi(request, family, await startExamByApi(request, family));
    await logIn(context, baseURL!, family);
    await page.goto(`/giay-chung-nhan/${family.childId}`);
    const verify = page.getByRole('link', { name: 'Trang xác minh' });
    await expect(verify).toBeVisible();
    expect((await box(verify)).height).toBeGreaterThanOrEqual(44);
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the school administrator's name is shown whole in the header", async ({ page, baseURL }) => {
    const response = await page.request.post('/api/login', { data: DEMO_SCHOOL_ADMIN });
    const body = await response.json();
    const url = baseURL!;
    await page.context().addCookies([
      { name: 'token', value: encodeURIComponent(body.access_token), url },
      { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), url },
    ]);
    await page.goto('/');
    const label = page.locator('.header-user .user-menu-label');
    await expect(label).toHaveText(DEMO_SCHOOL_ADMIN.name);
    const cut = await label.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut, 'the name is cut off').toBe(false);
    await expect(page.getByRole('button', { name: DEMO_SCHOOL_ADMIN.name })).toHaveAttribute('title', DEMO_SCHOOL_ADMIN.name);
    await expectAccessible(page, 'school administrator header');
  });

  test('on a short page the footer reaches the bottom of the window', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 1400 });
    for (const path of ['/404', '/xac-minh/ABCD-EFGH-JKLM']) {
      await page.goto(path);
      // The page itself, not its loading placeholder (a window tall, so the footer waits below the fold).
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expect(page.locator('footer.site-footer h2').first()).toBeVisible();
      const footer = await box(page.locator('footer.site-footer'));
      expect(Math.round(footer.y + footer.height), path).toBe(1400);
    }
  });

  test('a toast on a desktop leaves the header uncovered', async ({ page }) => {
    await page.goto('/bao-cao');
    const { toastTop, headerBottom } = await toastAndHeaderEdges(page);
    expect(toastTop).toBeGreaterThanOrEqual(headerBottom);
  });
});
