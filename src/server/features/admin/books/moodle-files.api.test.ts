// Question files written for Moodle (issue 23): a GIFT file mixing question types is read like
// Moodle reads it (the multiple-choice questions imported, the others listed as left out), a
// media link imports its question with a warning, and Aiken's "A)3" without a space is taken.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createBook, createOrganiser, uploadForm, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
let bookId: number;

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  bookId = await createBook(server, organiser, { name: 'Sách Moodle', author: 'Tác giả' });
});
afterAll(() => server.close());

const importInto = (fileName: string, content: string, fields: Record<string, string> = {}) =>
  server.request('POST', `/api/admin/books/${bookId}/questions/import`, { token: organiser.token, body: uploadForm(fileName, content, fields) });
const bank = async () => (await server.db.selectFrom('questions').select('value').where('book_id', '=', bookId).orderBy('id').execute()).map((q) => q.value);

it('previews then imports the multiple-choice questions of a mixed GIFT file and lists the essay left out', async () => {
  const gift = [
    '::Q1:: [html]What colour is the <b>sky</b>? {=[plain]blue ~red}',
    '',
    '::Q2:: Write a short biography of Dag Hammarskjöld. {}',
    '',
    '::Q3:: [plain]Which tag starts a page: <html class="x">? {=<html> ~<body>}',
    '',
    '::Q4:: Listen to bonjour.mp3: what does it mean? {=Hello ~Goodbye}',
  ].join('\n');
  const preview = await importInto('moodle.txt', gift, { dry_run: '1' });
  expect(preview.status).toBe(200);
  expect(preview.body.data).toMatchObject({
    dry_run: true,
    format: 'gift',
    rows: 4,
    created: 3,
    skipped_total: 1,
    skipped: [{ row: 3, message: expect.stringMatching(/^câu hỏi tự luận \(essay\)/) }],
    warnings_total: 1,
    warnings: [{ row: 7, message: 'câu hỏi có liên kết tệp âm thanh/hình ảnh bonjour.mp3, tệp này không được nhập: hãy tải âm thanh lên trong trình sửa câu hỏi' }],
  });
  expect(await bank()).toEqual([]);

  const stored = await importInto('moodle.txt', gift);
  expect(stored.body.data).toMatchObject({ dry_run: false, created: 3, skipped_total: 1 });
  expect(await bank()).toEqual(['What colour is the sky?', 'Which tag starts a page: <html class="x">?', 'Listen to bonjour.mp3: what does it mean?']);
});

it("imports a Moodle GIFT file with a multiple-response question (partial credit, %50%): that question listed as left out, the others imported", async () => {
  const gift = [
    '// Moodle\'s examples (gift-examples): a multiple-response question among multiple-choice ones',
    "::Grant's tomb::What two people are entombed in Grant's tomb? {",
    '   ~%-100%No one',
    '   ~%50%Grant',
    "   ~%50%Grant's wife",
    "   ~%-100%Grant's father",
    '}',
    '',
    '::Colours:: Which colour is the sea? {=blue ~red ~green}',
    '',
    '::Cats:: Con gì kêu meo meo? {=%100%Con mèo ~%0%Con chó}',
  ].join('\n');
  const preview = await importInto('gift-examples.txt', gift, { dry_run: '1' });
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  expect(preview.body.data).toMatchObject({
    format: 'gift',
    rows: 3,
    created: 2,
    skipped_total: 1,
    skipped: [{ row: 2, message: expect.stringMatching(/^câu hỏi nhiều đáp án đúng có điểm từng phần/) }],
  });
  const stored = await importInto('gift-examples.txt', gift);
  expect(stored.body.data).toMatchObject({ dry_run: false, created: 2, skipped_total: 1 });
  expect(await bank()).toEqual(expect.arrayContaining(['Which colour is the sea?', 'Con gì kêu meo meo?']));
  expect(await bank()).not.toContain("What two people are entombed in Grant's tomb?");
});

it('takes Aiken answers without a space after "A)" and keeps "<b>" in its text as typed', async () => {
  const stored = await importInto('aiken.txt', 'What is 2+2 in <b>bold</b>?\nA)3\nB)4\nANSWER: B\n');
  expect(stored.status).toBe(200);
  expect(stored.body.data).toMatchObject({ created: 1, format: 'aiken', skipped: [], warnings: [] });
  expect(await bank()).toContain('What is 2+2 in <b>bold</b>?');
});

it('keeps text that looks like markup in GIFT\'s default format as text (issue 23), as in Aiken and [plain]', async () => {
  const stored = await importInto('tag.txt', 'Which tag ends a page, after <body class="x">? {=</html> ~<head>}');
  expect(stored.status).toBe(200);
  expect(stored.body.data).toMatchObject({ created: 1, format: 'gift' });
  expect(stored.body.data.questions[0]).toMatchObject({ value: 'Which tag ends a page, after <body class="x">?', answers: ['</html>', '<head>'], correct: 0 });
  expect(await bank()).toContain('Which tag ends a page, after <body class="x">?');
});
