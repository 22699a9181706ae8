-- Results out of date (issue 42.1). Every back-office change that can move a prize after a
-- computation (a school's size, a merge, a regrade, an extra attempt, a withheld prize, the prize
-- settings...) bumps its contest's counter and lists its audit entry here, in the change's own
-- transaction (core/ranking/changes.ts). A computation stores the counter it read before reading
-- anything else: the results are out of date while the contest's counter is above it. A counter on
-- the contest row rather than timestamps: changes to one row are serialised, so the value a
-- computation reads counts exactly the changes it may have seen.
ALTER TABLE contests ADD COLUMN result_changes integer NOT NULL DEFAULT 0 CHECK (result_changes >= 0);
ALTER TABLE result_runs ADD COLUMN result_changes_seen integer NOT NULL DEFAULT 0 CHECK (result_changes_seen >= 0);

CREATE TABLE result_changes (
  contest_id integer NOT NULL REFERENCES contests (id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq > 0),
  audit_id bigint NOT NULL REFERENCES audit_log (id),
  PRIMARY KEY (contest_id, seq)
);
