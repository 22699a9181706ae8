-- Certificates ready to print (issue 37, part 3).
--
-- The organiser's signature and seal, printed on every certificate: one image of each kind, kept
-- in the media store (a re-encoded PNG with its alpha). A certificate's content names the images
-- it prints (their sha256 and size), so replacing one redraws the certificates, as a rename does.
CREATE TABLE certificate_images (
  kind text PRIMARY KEY CHECK (kind IN ('signature', 'seal')),
  sha256 text NOT NULL REFERENCES media (sha256),
  width integer NOT NULL CHECK (width BETWEEN 1 AND 2000),
  height integer NOT NULL CHECK (height BETWEEN 1 AND 2000),
  file_name text NOT NULL CHECK (length(file_name) <= 255),
  uploaded_at timestamptz NOT NULL,
  uploaded_by integer REFERENCES users (id) ON DELETE SET NULL
);

-- A school's certificates (or one class's) in one PDF, built in the background by whichever app
-- process claims it (FOR UPDATE SKIP LOCKED). A build's process writes its progress and a
-- heartbeat; one whose heartbeat stops (the process died) is claimed again, up to a few attempts,
-- then marked failed with a message. The file is kept in the row, and removed after a day.
CREATE TABLE certificate_bundles (
  id serial PRIMARY KEY,
  contest_id integer NOT NULL REFERENCES contests (id),
  school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
  -- The class as the school report names it; NULL: the whole school.
  class_name text CHECK (length(class_name) BETWEEN 1 AND 100),
  requested_by integer REFERENCES users (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'building', 'ready', 'failed')),
  total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
  done integer NOT NULL DEFAULT 0 CHECK (done >= 0 AND done <= total),
  attempts integer NOT NULL DEFAULT 0,
  -- The claim of the process building it (a random token) and when it last showed signs of life.
  claim text,
  heartbeat_at timestamptz,
  error text,
  pdf bytea,
  byte_size integer,
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  CHECK ((status = 'ready') = (pdf IS NOT NULL))
);
-- One build at a time per school, season and class: asking again joins the build under way.
CREATE UNIQUE INDEX certificate_bundles_one_active ON certificate_bundles (school_id, contest_id, coalesce(class_name, ''))
  WHERE status IN ('queued', 'building');
CREATE INDEX certificate_bundles_school ON certificate_bundles (school_id, contest_id, created_at);
CREATE INDEX certificate_bundles_pending ON certificate_bundles (id) WHERE status IN ('queued', 'building');

-- The certificates' layout 3 (the QR code of the verification address): the background job walks
-- the published results again and draws every certificate anew.
UPDATE result_runs SET certificates_synced_at = NULL, certificates_sync_cursor = 0 WHERE published_at IS NOT NULL;
