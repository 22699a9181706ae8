// Exam browser tests: a fresh parent registered through the API (OTP from the SMS outbox) with a
// contestant, logged in the way src/web/lib/session.ts restores a session (cookies token/user and
// the token in local storage).
import type { APIRequestContext, BrowserContext, Page, Response } from '@playwright/test';
import { expect, ok, otpFor, storeSession, uniquePhone } from './fixtures';

export interface Family {
  phone: string;
  token: string;
  user: { id: number; phone: string; name: string; is_admin_school: 0 | 1 };
  childId: number;
  childName: string;
}


/**
 * Registers a parent and enrols one contestant at the first school of the first district (not the
 * demo school), in the first class of the class group at `groupIndex` of /api/class-groups
 * (0 = Nhóm 1, grades 1-2; 1 = grades 3-4; 2, the default = grade 5).
 */
export async function registerFamily(request: APIRequestContext, childName = 'Trần Bảo Ngọc', groupIndex = 2): Promise<Family> {
  const phone = uniquePhone();
  const password = 'matkhau123';
  await ok(await request.post('/api/send-otp', { data: { phone, password, is_register: 1 } }));
  const otp = await otpFor(phone);
  const registered = await ok(await request.post('/api/register', { data: { phone, password, otp, consent: true } }));
  const token: string = registered.access_token;
  const headers = { authorization: `Bearer ${token}` };

  const districts = await ok(await request.get('/api/districts'));
  const district = districts.data[0];
  const schools = await ok(await request.get(`/api/schools?district_id=${district.id}`));
  const groups = await ok(await request.get('/api/class-groups'));
  const group = groups.data[groupIndex];
  const rooms = await ok(await request.get(`/api/class-rooms?class_group_id=${group.id}`));
  await ok(
    await request.post('/api/customer/profile', {
      headers,
      data: {
        phone,
        childrens: [
          { fullname: childName, district_id: district.id, school_id: schools.data[0].id, class_group_id: group.id, class_room_id: rooms.data[0].id, child_consent: true },
        ],
      },
    }),
  );
  const profile = await ok(await request.get('/api/profile', { headers }));
  return { phone, token, user: registered.user, childId: profile.data.childrens[0].id, childName };
}

export async function logIn(context: BrowserContext, baseURL: string, family: Family) {
  await storeSession(context, baseURL, family);
}

/** Starts an exam through the API (first book of the contestant). */
export async function startExamByApi(request: APIRequestContext, family: Family) {
  const headers = { authorization: `Bearer ${family.token}` };
  const books = await ok(await request.get(`/api/children/${family.childId}/books`, { headers }));
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: books.data[0].id, child_id: family.childId } }));
  return { slug: started.slug as string, examId: started.exam_id as number, bookId: started.book_id as number };
}

/** A new family (see registerFamily) with an exam started through the API, open on `page`'s exam screen. */
export async function startAndOpenExam(page: Page, request: APIRequestContext, baseURL: string, childName: string) {
  const family = await registerFamily(request, childName);
  const exam = await startExamByApi(request, family);
  await logIn(page.context(), baseURL, family);
  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  return { family, exam };
}

/** Starts a practice round through the API (the contestant's class group). */
export async function startPracticeByApi(request: APIRequestContext, family: Family) {
  const started = await (await request.post('/api/practice/start', { headers: { authorization: `Bearer ${family.token}` }, data: { child_id: family.childId } })).json();
  expect(started.success).toBe(true);
  return { slug: started.slug as string };
}

export async function examResult(request: APIRequestContext, family: Family, slug: string) {
  return ok(await request.get(`/api/exam-result?slug=${slug}`, { headers: { authorization: `Bearer ${family.token}` } }));
}

/**
 * The exam as GET /api/examing answers it. That call is a load of the exam: it makes the test the
 * exam's writer (issue 20) and a screen that has it open stops saving (409 exam_open_elsewhere). Use
 * it before a screen opens the exam or once the screen is done; while a screen is open, read what
 * the server holds with serverAnswers(page).
 */
export async function savedExam(request: APIRequestContext, family: Family, exam: { slug: string; bookId: number }) {
  return ok(
    await request.get(`/api/examing?book_id=${exam.bookId}&child_id=${family.childId}&slug_exam=${exam.slug}`, {
      headers: { authorization: `Bearer ${family.token}` },
    }),
  );
}

/** The navigator button of question `n` (1-based). */
export const navigatorItem = (page: Page, n: number) => page.getByRole('navigation', { name: 'Danh sách câu hỏi' }).getByRole('button', { name: new RegExp(`^Câu ${n},`) });

/** Chooses the `index`-th answer (0-based) of the question on screen. */
export async function chooseAnswer(page: Page, index: number) {
  await page.locator('.exam-answer').nth(index).click();
}

/**
 * How many answers the server holds for the exam open on `page`, as the server itself said last:
 * the answers of its latest load (GET /api/examing) or of the latest save it acknowledged (every
 * save sends the whole answer sheet; the newest by sequence number is what the server keeps).
 * Reading them with another GET would take the exam over from the screen (savedExam).
 */
export function serverAnswers(page: Page) {
  let latest = { seq: -1, answers: 0 };
  const take = (seq: number, answers: number) => {
    if (seq >= latest.seq) latest = { seq, answers };
  };
  page.on('response', async (response: Response) => {
    const url = new URL(response.url());
    if (response.status() !== 200) return;
    try {
      if (url.pathname === '/api/examing') {
        const body = await response.json();
        take(body.data.save_seq, body.data.data_answers.length);
      } else if (url.pathname === '/api/store-answers-exam') {
        const sent = response.request().postDataJSON();
        if ((await response.json()).saved) take(sent.seq, sent.answers.length);
      }
    } catch {
      // A response of a page that went away meanwhile (a reload): the next load says it again.
    }
  });
  return () => latest.answers;
}

/** Saves answers for an exam through the API, without a writer handle (before a screen opens it). */
export async function saveByApi(
  request: APIRequestContext,
  family: Family,
  exam: { slug: string; examId: number; bookId: number },
  choose: (question: { id: number; answers: { id: number }[] }, index: number) => number | undefined,
  prediction?: number,
) {
  const taking = await savedExam(request, family, exam);
  const answers = (taking.data.data_questions as { id: number; answers: { id: number }[] }[]).flatMap((question, index) => {
    const answerId = choose(question, index);
    return answerId === undefined ? [] : [{ question_id: question.id, answer_id: answerId }];
  });
  await ok(
    await request.post('/api/store-answers-exam', {
      headers: { authorization: `Bearer ${family.token}` },
      data: { exam_id: exam.examId, slug: exam.slug, answers, ...(prediction !== undefined ? { prediction } : {}), seq: 1 },
    }),
  );
  return taking.data.data_questions as { id: number; value: string; answers: { id: number; value: string }[] }[];
}
