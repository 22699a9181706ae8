-- Which browser and address opened each session (issue 23.8): an organiser's shared account has
-- up to MAX_LIVE_SESSIONS_PER_USER sessions and a new login ends the oldest; the list of live
-- sessions must say which is which, so that one can be ended on purpose rather than by surprise.
-- Written once at login, never on the hot path.
ALTER TABLE sessions
  ADD COLUMN user_agent text CHECK (length(user_agent) <= 300),
  ADD COLUMN ip text CHECK (length(ip) <= 64);
