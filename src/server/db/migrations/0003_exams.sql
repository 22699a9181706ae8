-- Exams on exam day: every autosave is one UPDATE of an exam row (features/exams/repo.ts). Two
-- changes keep that statement close to the cost of a bare primary-key UPDATE:

-- 1. Room on every page for the new version of a row, so that a save (which changes no indexed
--    column) is a HOT update: no index of the table is written.
ALTER TABLE exams SET (fillfactor = 70);

-- 2. The exam's own (question, answer) pairs, encoded question_id * 2^32 + answer_id, so that a
--    save checks its answers with one array containment instead of reading (and decompressing)
--    the questions document. Derived from `questions` by a trigger, so it can never disagree
--    with them whoever writes the row.
ALTER TABLE exams ADD COLUMN answer_options bigint[];

CREATE FUNCTION exams_set_answer_options() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.answer_options := ARRAY(
    SELECT (q ->> 'id')::bigint * 4294967296 + (a ->> 'id')::bigint
    FROM jsonb_array_elements(NEW.questions) AS q, jsonb_array_elements(q -> 'answers') AS a
  );
  RETURN NEW;
END
$$;

CREATE TRIGGER exams_answer_options BEFORE INSERT OR UPDATE OF questions ON exams
  FOR EACH ROW EXECUTE FUNCTION exams_set_answer_options();

UPDATE exams SET questions = questions;
ALTER TABLE exams ALTER COLUMN answer_options SET NOT NULL;
