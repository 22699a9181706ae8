-- When each answer was given, and from which login (issue 25.2, docs/decisions/027-integrity-screening.md).
-- Written by the autosave's one UPDATE (features/exams/repo.ts SAVE_ANSWERS_SQL), no other
-- statement: "<question_id>:<answer_id>" -> the Unix time (s) of the first save that carried that
-- answer to that question (the save's keys come first in the merge, the stored ones win, so a
-- time is never moved), and "s" -> the id of the session (a login on one browser) of the last
-- save. The first answer of a question is its earliest key, the last one the key of the answer
-- stored. A constant default: added without rewriting the table.
ALTER TABLE exams ADD COLUMN answer_times jsonb NOT NULL DEFAULT '{}'::jsonb;
