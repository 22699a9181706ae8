-- Exam days in the back office (issue 13): incidents (one extra attempt, a deadline extended),
-- the live dashboard's shared snapshot, and each app process's autosave counters.

-- Incidents -----------------------------------------------------------------------------------

-- One extra attempt per contestant, given by the organiser with a reason. The contestant is the
-- key: exams number attempts per contestant across contests (UNIQUE (contestant_id, attempt)),
-- so a second grant could never be used anyway.
CREATE TABLE extra_attempts (
  contestant_id integer PRIMARY KEY REFERENCES contestants (id) ON DELETE CASCADE,
  contest_id integer NOT NULL REFERENCES contests (id),
  reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 3 AND 500),
  granted_by integer REFERENCES users (id) ON DELETE SET NULL,
  granted_at timestamptz NOT NULL DEFAULT now()
);

-- A fourth attempt exists only with a grant: it names the grant (its contestant's own), which the
-- foreign key keeps from being deleted while the attempt exists. A contest set to fewer than 3
-- attempts lets the grant's attempt be the 2nd or 3rd; the service counts it (exams/service.ts).
ALTER TABLE exams ADD COLUMN extra_attempt_of integer REFERENCES extra_attempts (contestant_id);
ALTER TABLE exams DROP CONSTRAINT exams_attempt_check;
ALTER TABLE exams
  ADD CONSTRAINT exams_attempt_check CHECK (attempt BETWEEN 1 AND 4),
  ADD CONSTRAINT exams_extra_attempt_check CHECK (
    CASE WHEN attempt <= 3 THEN extra_attempt_of IS NULL
         ELSE extra_attempt_of IS NOT NULL AND extra_attempt_of = contestant_id END
  );

-- Minutes added to the deadline by the organiser (end_time already includes them): at most 20 in
-- total per attempt. A constant default: no rewrite of the table.
ALTER TABLE exams ADD COLUMN extension_minutes smallint NOT NULL DEFAULT 0
  CONSTRAINT exams_extension_minutes_check CHECK (extension_minutes BETWEEN 0 AND 20);

-- The live dashboard ----------------------------------------------------------------------------

-- The dashboard's figures, computed by one process at a time (advisory lock) at most every few
-- seconds and served to every organiser from here, so polling never multiplies the aggregates.
CREATE TABLE dashboard_snapshots (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  computed_at timestamptz NOT NULL,
  data jsonb NOT NULL
);

-- Each app process's autosave counters (cumulative since it started) and the same counters about
-- a minute earlier, written every few seconds off the save path; the dashboard sums the
-- differences of the processes alive (updated within a minute). Rows of stopped processes are
-- deleted after an hour.
CREATE TABLE process_counters (
  process_id text PRIMARY KEY CHECK (length(process_id) BETWEEN 1 AND 100),
  started_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  counters jsonb NOT NULL,
  baseline_at timestamptz NOT NULL,
  baseline jsonb NOT NULL,
  CHECK (baseline_at <= updated_at)
);

-- "Started today", the per-hour chart, the contest's exams and "finished today" read these
-- instead of every exam (checked with EXPLAIN on 270,000 exams). No column of theirs changes on
-- an autosave, so saves stay HOT updates (0003_exams.sql).
CREATE INDEX exams_contest_start_idx ON exams (contest_id, start_time);
CREATE INDEX exams_contest_submitted_idx ON exams (contest_id, submitted_at) WHERE status = 1;
