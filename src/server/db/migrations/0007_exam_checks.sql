-- The row rules of exams back as CHECK constraints (issue 11), replacing the trigger of 0005.
-- A trigger does not hold under session_replication_role = replica (a restore with triggers
-- off), ALTER TABLE ... DISABLE TRIGGER or a table made LIKE/INHERITS exams, and its errors carry
-- no constraint name. Measured with bench:exam, the CHECKs cost the save path no more than the
-- noise (docs/decisions/005-exam-save-path.md). Same names as in 0001, so errors name the rule.
DROP TRIGGER exams_row_rules ON exams;
DROP FUNCTION exams_check_row();

ALTER TABLE exams
  ADD CONSTRAINT exams_slug_check CHECK (length(slug) >= 16),
  ADD CONSTRAINT exams_attempt_check CHECK (attempt BETWEEN 1 AND 3),
  ADD CONSTRAINT exams_status_check CHECK (status IN (1, 2)),
  ADD CONSTRAINT exams_correct_count_check CHECK (correct_count >= 0),
  ADD CONSTRAINT exams_points_check CHECK (points BETWEEN 0 AND 100),
  ADD CONSTRAINT exams_duration_seconds_check CHECK (duration_seconds >= 0),
  ADD CONSTRAINT exams_check CHECK (start_time < end_time),
  ADD CONSTRAINT exams_check1 CHECK (status = 2 OR (submitted_at IS NOT NULL AND points IS NOT NULL AND duration_seconds IS NOT NULL));
