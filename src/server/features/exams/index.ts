// What other features may use of the exams (lint: features import each other only through
// index.ts). What the exam shares with the practice round is in core/paper, not here.
export { finaliseOverdueExams } from './finalise';
export { correctCountSql, pointsSql } from './repo';
