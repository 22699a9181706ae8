// What other features may use of the exams (lint: features import each other only through
// index.ts). The practice round borrows the exam's rules until both share one engine (issue 22, step 3).
export { withClips } from './clips';
export { finaliseOverdueExams } from './finalise';
export { correctCountSql, findOwnedContestant, pointsSql, type DrawnQuestion } from './repo';
export { answerMapOf, assertAnswersBelong, assertCanTakeExams, assertCurrentWriter, finalAnswersCount, isOverdue, newWriter, paperOf } from './service';
