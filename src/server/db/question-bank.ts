// The exam bank of a book, counted as a start draws from it (features/exams/repo.ts readBank): the
// book's questions that are not the practice round's and have answers. One statement of the rule
// "a book is offered for an exam only when its bank holds an exam's questions" (issue 42), for the
// lists that offer books and the checks that open an exam window.
import { sql, type Expression } from 'kysely';

/** The exam questions of the book `bookId` (a column reference or a value), as an integer. */
export const examQuestionCount = (bookId: Expression<number>) =>
  sql<number>`(SELECT count(*) FROM questions q WHERE q.book_id = ${bookId} AND NOT q.is_practice AND EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.id))::integer`;

/** True when the book's bank holds at least the current season's questions per exam. */
export const bankHoldsAnExam = (bookId: Expression<number>) =>
  sql<boolean>`${examQuestionCount(bookId)} >= (SELECT questions_per_exam FROM contests WHERE is_current)`;
