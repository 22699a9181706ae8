-- The question banks change rarely (an organiser's edit, an import) and are read by every exam
-- start. Each app process keeps the banks it has drawn from (features/exams/bank.ts) with the
-- version below, and a start uses its copy only while the version it reads with the start's other
-- checks is still that one, so a change committed on any process is seen by the next start on
-- every process. One row; every statement that writes questions or answers moves it on, in the
-- writer's transaction (it becomes visible with the change itself).
CREATE TABLE question_bank_version (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL
);
INSERT INTO question_bank_version (version) VALUES (1);

CREATE FUNCTION question_bank_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE question_bank_version SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER questions_bank_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON questions
  FOR EACH STATEMENT EXECUTE FUNCTION question_bank_changed();
CREATE TRIGGER answers_bank_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON answers
  FOR EACH STATEMENT EXECUTE FUNCTION question_bank_changed();
