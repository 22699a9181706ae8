-- The exam-day save (features/exams/repo.ts, docs/decisions/005-exam-save-path.md) is one UPDATE
-- per autosave; these changes take work out of that statement without loosening any rule.

-- 1. The owner (the contestant's parent) on the exam itself, so that the save checks
--    sessions.user_id = exams.user_id without reading contestants. The composite foreign key keeps
--    it equal to the contestant's owner for ever (ON UPDATE CASCADE follows any change of owner).
ALTER TABLE contestants ADD CONSTRAINT contestants_id_user_key UNIQUE (id, user_id);
ALTER TABLE exams ADD COLUMN user_id integer;
UPDATE exams e SET user_id = c.user_id FROM contestants c WHERE c.id = e.contestant_id;
ALTER TABLE exams ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE exams ADD CONSTRAINT exams_owner_fkey FOREIGN KEY (contestant_id, user_id)
  REFERENCES contestants (id, user_id) ON UPDATE CASCADE;

-- The app gives user_id when it starts an exam; any other writer (seed data, tests) may leave it
-- out and gets the contestant's owner.
CREATE FUNCTION exams_set_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NULL THEN
    NEW.user_id := (SELECT user_id FROM contestants WHERE id = NEW.contestant_id);
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER exams_owner BEFORE INSERT ON exams FOR EACH ROW EXECUTE FUNCTION exams_set_owner();

-- 2. The row rules of exams, checked only when a write can change them. PostgreSQL re-reads and
--    re-plans every CHECK constraint of a table on every UPDATE of it, whichever columns change:
--    for the nine of exams that was about 20 microseconds of the ~140 of an autosave. A save sets
--    only answers, prediction, save_seq and saved_at; the trigger below checks the same conditions
--    on every INSERT and every UPDATE that sets any other column they read, so no row can break
--    them. prediction, the one rule a save can break, stays a CHECK constraint.
ALTER TABLE exams
  DROP CONSTRAINT exams_slug_check,
  DROP CONSTRAINT exams_attempt_check,
  DROP CONSTRAINT exams_status_check,
  DROP CONSTRAINT exams_correct_count_check,
  DROP CONSTRAINT exams_points_check,
  DROP CONSTRAINT exams_duration_seconds_check,
  DROP CONSTRAINT exams_check,
  DROP CONSTRAINT exams_check1;

CREATE FUNCTION exams_check_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A condition that is NULL passes, as in a CHECK constraint.
  IF NOT coalesce(length(NEW.slug) >= 16, true) THEN
    RAISE EXCEPTION 'exams.slug is shorter than 16 characters' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.attempt BETWEEN 1 AND 3, true) THEN
    RAISE EXCEPTION 'exams.attempt must be 1..3' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.status IN (1, 2), true) THEN
    RAISE EXCEPTION 'exams.status must be 1 or 2' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.correct_count >= 0, true) THEN
    RAISE EXCEPTION 'exams.correct_count must be >= 0' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.points BETWEEN 0 AND 100, true) THEN
    RAISE EXCEPTION 'exams.points must be 0..100' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.duration_seconds >= 0, true) THEN
    RAISE EXCEPTION 'exams.duration_seconds must be >= 0' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.start_time < NEW.end_time, true) THEN
    RAISE EXCEPTION 'exams.start_time must be before end_time' USING ERRCODE = 'check_violation';
  END IF;
  IF NOT coalesce(NEW.status = 2 OR (NEW.submitted_at IS NOT NULL AND NEW.points IS NOT NULL AND NEW.duration_seconds IS NOT NULL), true) THEN
    RAISE EXCEPTION 'a finished exam needs submitted_at, points and duration_seconds' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

-- Named to run after exams_answer_options and exams_owner (triggers fire in name order).
CREATE TRIGGER exams_row_rules BEFORE INSERT OR UPDATE OF
  slug, attempt, status, correct_count, points, duration_seconds, start_time, end_time, submitted_at
  ON exams FOR EACH ROW EXECUTE FUNCTION exams_check_row();
