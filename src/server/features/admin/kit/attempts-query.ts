// An attempt as the back office lists it (an account's page, the incident desk): the exam with its
// book's name, oldest attempt first for each contestant. Callers add their own columns and filter.
import type { Db } from '../../../db/client';

export const selectAttempts = (db: Db) =>
  db
    .selectFrom('exams')
    .innerJoin('books', 'books.id', 'exams.book_id')
    .select(['exams.id', 'exams.contestant_id', 'exams.attempt', 'books.name as book', 'exams.status', 'exams.points', 'exams.start_time', 'exams.submitted_at'])
    .orderBy('exams.contestant_id')
    .orderBy('exams.attempt');
