-- Issue 20: logins behind one carrier address. A row of login_failures is now either a failure or
-- a try whose password is being checked (pending): the phone's limit counts both, so concurrent
-- guesses are counted before they are checked; a right password deletes its pending row, so a
-- success never counts. The address counts only finished failures of unknown devices; a failure
-- made with a device cookie (device = the cookie's nonce) counts against that device instead.
-- docs/decisions/012-login-throttling.md
ALTER TABLE login_failures ADD COLUMN pending boolean NOT NULL DEFAULT false;
ALTER TABLE login_failures ADD COLUMN device text;

-- The address's count reads only its own rows: a school's thousands of successful logins and
-- tries under way are not in this index.
DROP INDEX login_failures_ip_idx;
CREATE INDEX login_failures_ip_idx ON login_failures (ip, created_at) WHERE NOT pending AND device IS NULL;
