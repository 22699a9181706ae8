-- Messages to families (issue 37 part 1, decision 040): campaigns written in the back office, one
-- row per recipient with its delivery status, the families' opt-outs, the channels' daily counts
-- and the area's own settings. Delivery jobs live in pg-boss's schema (features/admin/messages/queue.ts).

-- One row: prices in đồng (an SMS per segment, a ZNS message) and each channel's daily cap.
CREATE TABLE message_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  sms_segment_price integer NOT NULL DEFAULT 800 CHECK (sms_segment_price >= 0),
  zns_price integer NOT NULL DEFAULT 300 CHECK (zns_price >= 0),
  sms_daily_cap integer NOT NULL DEFAULT 20000 CHECK (sms_daily_cap >= 0),
  zns_daily_cap integer NOT NULL DEFAULT 20000 CHECK (zns_daily_cap >= 0)
);
INSERT INTO message_settings DEFAULT VALUES;

CREATE TABLE message_campaigns (
  id serial PRIMARY KEY,
  contest_id integer NOT NULL REFERENCES contests (id),
  template text NOT NULL CHECK (template IN ('custom', 'results_published', 'certificates_ready', 'reminder')),
  -- The SMS text with its parameters filled, without the opt-out link (added per recipient).
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 1000),
  segments integer NOT NULL CHECK (segments >= 1),
  channel text NOT NULL CHECK (channel IN ('sms', 'zns')),
  zns_template_id text NOT NULL DEFAULT '',
  zns_params jsonb NOT NULL DEFAULT '{}',
  audience jsonb NOT NULL,
  audience_label text NOT NULL,
  urgent boolean NOT NULL DEFAULT false,
  -- Not before: now, or 07:00 (Asia/Ho_Chi_Minh) after the quiet hours.
  send_after timestamptz NOT NULL,
  estimated_cost bigint NOT NULL CHECK (estimated_cost >= 0),
  created_by integer REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (channel = 'sms' OR zns_template_id <> '')
);

CREATE TABLE message_recipients (
  id bigserial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES message_campaigns (id) ON DELETE CASCADE,
  -- The phone is the account's, read when the message is due: an erased account's is never kept here.
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- waiting -> sending (claimed until lease_until) -> sent | failed; opted_out and reminded_today
  -- are skips decided when the campaign is queued or (opted_out) when the message is due.
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'sending', 'sent', 'failed', 'opted_out', 'reminded_today')),
  -- The channel that delivered it (a ZNS campaign's message may go as SMS).
  channel text CHECK (channel IN ('sms', 'zns')),
  -- The gateway's reason of a failure, or of a ZNS refusal before the SMS.
  reason text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  sent_at timestamptz,
  -- A reminder's day (Asia/Ho_Chi_Minh): never two reminders to one family in a day.
  reminder_day date,
  UNIQUE (campaign_id, user_id),
  CHECK (status <> 'sent' OR (sent_at IS NOT NULL AND channel IS NOT NULL))
);
CREATE UNIQUE INDEX message_recipients_one_reminder_a_day ON message_recipients (user_id, reminder_day) WHERE reminder_day IS NOT NULL;
CREATE INDEX message_recipients_by_campaign ON message_recipients (campaign_id, status);

-- A family's opt-out token (the link at the end of each message) and, once used, when.
CREATE TABLE message_opt_outs (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  token text NOT NULL UNIQUE CHECK (token ~ '^[A-Za-z0-9_-]{12}$'),
  opted_out_at timestamptz
);

-- Messages each channel was asked to send per day (Asia/Ho_Chi_Minh): the daily cap's counter,
-- taken by an UPDATE ... WHERE sent < cap so that every process shares it.
CREATE TABLE message_daily_counts (
  day date NOT NULL,
  channel text NOT NULL CHECK (channel IN ('sms', 'zns')),
  sent integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, channel)
);
