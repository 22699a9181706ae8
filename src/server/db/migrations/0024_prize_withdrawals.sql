-- Revoking a certificate and withdrawing a prize are two acts (issue 23.6, decision 020).
--
-- A revoked certificate is a void paper (a misprint, a lost copy): its code keeps saying
-- "revoked", and its holder, still entitled, is issued a new certificate with a new code. So at
-- most one certificate per holder and kind is *in force*; revoked ones may be several.
DROP INDEX certificates_contestant_idx;
DROP INDEX certificates_school_idx;
CREATE UNIQUE INDEX certificates_contestant_idx ON certificates (contest_id, contestant_id, kind) WHERE contestant_id IS NOT NULL AND revoked_at IS NULL;
CREATE UNIQUE INDEX certificates_school_idx ON certificates (contest_id, school_id, kind) WHERE school_id IS NOT NULL AND revoked_at IS NULL;

-- A withdrawn prize: the contestant keeps the rank but not the prize ('individual': the tier's
-- prize; 'school_pupils': the gift to the school's best pupils). Every computation stores the
-- results without it, so the prize list, the money, the exports and the family page agree; the
-- places do not move (the next contestant does not inherit the prize).
CREATE TABLE prize_withdrawals (
  contest_id integer NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
  contestant_id integer NOT NULL REFERENCES contestants (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('individual', 'school_pupils')),
  -- What was withdrawn, as it was when withdrawn.
  prize_name text NOT NULL,
  amount integer NOT NULL CHECK (amount >= 0),
  reason text NOT NULL CHECK (length(btrim(reason)) BETWEEN 3 AND 1000),
  withdrawn_by integer REFERENCES users (id) ON DELETE SET NULL,
  withdrawn_at timestamptz NOT NULL,
  PRIMARY KEY (contest_id, contestant_id, kind)
);
