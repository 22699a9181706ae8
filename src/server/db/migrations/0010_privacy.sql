-- Children's personal data (issue 15): consent with the privacy notice's version, deletion of an
-- account confirmed by an SMS code, and anonymised contestants whose scores stay in the results.

-- The notice version the parent agreed to and when; NULL: never asked (accounts made before).
ALTER TABLE users ADD COLUMN privacy_version text;
ALTER TABLE users ADD COLUMN privacy_consented_at timestamptz;
-- Set when the account was deleted by its owner: the row stays (contestants with exams keep
-- their scores) with a placeholder phone, no name and no usable password.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- The parent's confirmation of the child's own agreement (children of 7 and over), per contestant.
ALTER TABLE contestants ADD COLUMN consent_version text;
ALTER TABLE contestants ADD COLUMN consented_at timestamptz;
-- Set when the name was removed: the contestant's results stay for the ranking and school statistics.
ALTER TABLE contestants ADD COLUMN anonymised_at timestamptz;

-- A new purpose for the one-time codes: confirming the deletion of an account.
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check CHECK (purpose IN ('register', 'forgot_password', 'delete_account'));
