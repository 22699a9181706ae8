// A question keeps its line breaks (issue 23.20): a question about a poem quotes it line by line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import writeExcelFile from 'write-excel-file/node';
import { templateColumns } from '../../../../shared/schemas/admin';
import { createBook, createOrganiser, uploadForm, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
let bookId: number;

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  bookId = await createBook(server, organiser, { name: 'Thơ cho em', author: 'Trần Đăng Khoa' });
});
afterAll(() => server.close());

describe('a question of several lines', () => {
  it('keeps its line breaks from the editor, each line tidied and blank lines shrunk to one', async () => {
    const value = 'Đọc đoạn thơ:\r\n  Sáng  nay trời đổ mưa rào\r\nNắng trong trái chín ngọt ngào bay hương\n\n\n\nBài thơ nói về mùa nào?  ';
    const created = await server.request('POST', `/api/admin/books/${bookId}/questions`, {
      token: organiser.token,
      body: { value, audio: null, answers: [{ value: 'Mùa hè', audio: null }, { value: 'Mùa đông', audio: null }], correct: 0 },
    });
    expect(created.status).toBe(200);
    const expected = 'Đọc đoạn thơ:\nSáng nay trời đổ mưa rào\nNắng trong trái chín ngọt ngào bay hương\n\nBài thơ nói về mùa nào?';
    expect(created.body.data.value).toBe(expected);
    const stored = await server.db.selectFrom('questions').select('value').where('id', '=', created.body.data.id).executeTakeFirstOrThrow();
    expect(stored.value).toBe(expected);
  });

  it('keeps the line breaks of a question cell of an .xlsx (Alt+Enter), while every other cell stays one line', async () => {
    const rows = [
      templateColumns.questions,
      ['Đọc đoạn thơ:\n  Sáng nay trời đổ mưa rào\r\nNắng trong trái chín ngọt ngào\n\n\nMùa nào?', 'Mùa\nhè', 'Mùa đông', 'Mùa xuân', 'Mùa thu', 'A'],
    ];
    const file = Buffer.from(await writeExcelFile(rows.map((row) => row.map((value) => ({ value }))) as never).toBuffer());
    const answer = await server.request('POST', `/api/admin/books/${bookId}/questions/import`, { token: organiser.token, body: uploadForm('tho.xlsx', file) });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ created: 1 });
    const stored = await server.db
      .selectFrom('questions')
      .innerJoin('answers', 'answers.question_id', 'questions.id')
      .select(['questions.value', 'answers.value as answer'])
      .where('questions.book_id', '=', bookId)
      .where('questions.value', 'like', 'Đọc đoạn thơ:%Mùa nào?')
      .orderBy('answers.id')
      .execute();
    expect(stored[0]!.value).toBe('Đọc đoạn thơ:\nSáng nay trời đổ mưa rào\nNắng trong trái chín ngọt ngào\n\nMùa nào?');
    expect(stored.map((row) => row.answer)).toEqual(['Mùa hè', 'Mùa đông', 'Mùa xuân', 'Mùa thu']);
  });
});
