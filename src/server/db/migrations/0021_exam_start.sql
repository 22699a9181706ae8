-- The start of an exam (issue 20, a start storm at the top of an exam hour) inserts one exam row;
-- these changes take work out of that insert without loosening any rule.

-- 1. exams.contestant_id was checked twice per insert: by its own foreign key and by the owner's
--    (contestant_id, user_id), which references the same contestant (0005_exam_owner.sql). The
--    second alone keeps every rule: the contestant exists, and one with exams cannot be deleted.
ALTER TABLE exams DROP CONSTRAINT exams_contestant_id_fkey;

-- 2. The owner trigger only fills a missing user_id (the app always gives it): it now runs only then.
DROP TRIGGER exams_owner ON exams;
CREATE TRIGGER exams_owner BEFORE INSERT ON exams FOR EACH ROW WHEN (NEW.user_id IS NULL)
  EXECUTE FUNCTION exams_set_owner();

-- 3. answer_options (0003_exams.sql) took about 50 microseconds per insert to derive in PL/pgSQL,
--    more than the rest of the row. The app gives it with the row, built from the same questions
--    (features/exams/repo.ts insertExam); any other insert without it, and every change of the
--    questions, still has it derived here.
DROP TRIGGER exams_answer_options ON exams;
CREATE TRIGGER exams_answer_options BEFORE UPDATE OF questions ON exams
  FOR EACH ROW EXECUTE FUNCTION exams_set_answer_options();
CREATE TRIGGER exams_answer_options_on_insert BEFORE INSERT ON exams FOR EACH ROW WHEN (NEW.answer_options IS NULL)
  EXECUTE FUNCTION exams_set_answer_options();
