-- One writer per exam (issue 20, docs/decisions/010-one-writer-per-exam.md): the screen that
-- loaded the exam last is the only one whose saves and submit are accepted. Each load of the exam
-- screen draws a new random handle and stores it here; a save or submit that names an older one is
-- refused (409 exam_open_elsewhere) and changes nothing. NULL until the exam is first loaded.
-- A nullable column without a default: added without rewriting the table.
ALTER TABLE exams ADD COLUMN writer text;
-- The practice round uses the same exam screen, so the same rule.
ALTER TABLE practice_exams ADD COLUMN writer text;
