-- Changing a password from a session asks for the current one (issue 21), except in a session
-- that proved the account another way: a one-time link (/doi-mat-khau/{token}) or an SMS code
-- (forgot password). Such a session may set the password once, without the current one, until
-- password_reset_until. A session that guesses the current password wrong too often is ended, so
-- a stolen session cannot try passwords for long (features/auth/service.ts changePassword).
ALTER TABLE sessions ADD COLUMN password_reset_until timestamptz;
ALTER TABLE sessions ADD COLUMN wrong_password_tries smallint NOT NULL DEFAULT 0;
