-- Issue 37.2: the winners' list is public. The parent's consent to publish the child's name if
-- the child wins, per contestant, with the privacy notice's version under which it was given and
-- when; NULL: not given (the default), and the list shows "Học sinh lớp 3A, Trường …" instead.
-- Changeable in the profile at any time, also once the child has an exam.
ALTER TABLE contestants ADD COLUMN name_consent_version text;
ALTER TABLE contestants ADD COLUMN name_consented_at timestamptz;
ALTER TABLE contestants ADD CONSTRAINT contestants_name_consent_check
  CHECK ((name_consent_version IS NULL) = (name_consented_at IS NULL));

-- The public list reads the prizes of a contest, not its 200,000 results: the prized rows only.
CREATE INDEX individual_results_prized_idx ON individual_results (contest_id, rank) WHERE prize_code IS NOT NULL;
CREATE INDEX individual_results_school_top_idx ON individual_results (contest_id, school_id, school_rank) WHERE school_top;
