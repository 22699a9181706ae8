-- The contest timeline beyond the exam window (spec section 9): the reading period before the
-- exam and the prize ceremony after the results. Every date the site shows comes from contests.

-- *_starts_at: the first moment of the period; *_ends_at: its last (23:59 of the last day).
ALTER TABLE contests
  ADD COLUMN reading_starts_at timestamptz,
  ADD COLUMN reading_ends_at timestamptz,
  ADD COLUMN ceremony_starts_at timestamptz,
  ADD COLUMN ceremony_ends_at timestamptz;

-- A writer that leaves them out (older tools, tests) gets the spec's shape around its exam
-- window: reading over the 30 days before the exam day, the ceremony over the 6 days after the
-- results day. Contests that exist now get the same.
CREATE FUNCTION contests_default_dates() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  exam_day timestamptz := date_trunc('day', NEW.exam_starts_at AT TIME ZONE 'Asia/Ho_Chi_Minh') AT TIME ZONE 'Asia/Ho_Chi_Minh';
  results_day timestamptz := date_trunc('day', NEW.results_at AT TIME ZONE 'Asia/Ho_Chi_Minh') AT TIME ZONE 'Asia/Ho_Chi_Minh';
BEGIN
  NEW.reading_starts_at := coalesce(NEW.reading_starts_at, exam_day - interval '30 days');
  NEW.reading_ends_at := coalesce(NEW.reading_ends_at, exam_day - interval '1 minute');
  NEW.ceremony_starts_at := coalesce(NEW.ceremony_starts_at, results_day + interval '1 day');
  NEW.ceremony_ends_at := coalesce(NEW.ceremony_ends_at, results_day + interval '7 days' - interval '1 minute');
  RETURN NEW;
END;
$$;
CREATE TRIGGER contests_default_dates BEFORE INSERT OR UPDATE ON contests
  FOR EACH ROW EXECUTE FUNCTION contests_default_dates();
UPDATE contests SET reading_starts_at = NULL;

ALTER TABLE contests
  ALTER COLUMN reading_starts_at SET NOT NULL,
  ALTER COLUMN reading_ends_at SET NOT NULL,
  ALTER COLUMN ceremony_starts_at SET NOT NULL,
  ALTER COLUMN ceremony_ends_at SET NOT NULL,
  ADD CONSTRAINT contests_reading_order CHECK (reading_starts_at < reading_ends_at),
  -- Reading may go on during the exam, but starts no later than it.
  ADD CONSTRAINT contests_reading_before_exam CHECK (reading_starts_at <= exam_starts_at),
  ADD CONSTRAINT contests_ceremony_order CHECK (ceremony_starts_at < ceremony_ends_at),
  ADD CONSTRAINT contests_ceremony_after_results CHECK (results_at <= ceremony_starts_at);
