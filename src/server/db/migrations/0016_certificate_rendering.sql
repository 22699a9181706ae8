-- Certificates drawn in the background once results are published (issue 13), revocation, and the
-- renderer's bookkeeping. The PDF is drawn ahead; the PNG preview only when first asked for, so
-- each file has the content hash it was drawn from (files_hash: the PDF, png_hash: the preview).
ALTER TABLE certificates
  ADD COLUMN png_hash text,
  ADD COLUMN rendered_at timestamptz,
  -- A failed drawing is retried after render_after, at most a few times (render_failures), and
  -- reported with its error until a drawing succeeds.
  ADD COLUMN render_failures integer NOT NULL DEFAULT 0 CHECK (render_failures >= 0),
  ADD COLUMN render_error text,
  ADD COLUMN render_after timestamptz,
  -- A revoked certificate keeps its row (so its code says "revoked" and the job never issues it
  -- again); the reason is for the organisers, never shown to the public.
  ADD COLUMN revoked_at timestamptz,
  ADD COLUMN revoked_by integer REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN revoked_reason text,
  ADD CONSTRAINT certificates_revocation_reason CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL) AND (revoked_reason IS NULL OR btrim(revoked_reason) <> ''));

-- The files are compressed already (deflate inside the PDF, PNG): stored out of line as they are,
-- without PostgreSQL trying (and failing) to compress them again on every write.
ALTER TABLE certificates ALTER COLUMN pdf SET STORAGE EXTERNAL, ALTER COLUMN png SET STORAGE EXTERNAL;

UPDATE certificates SET png_hash = files_hash WHERE png IS NOT NULL;

-- The renderer's work list: certificates whose PDF is missing or stale.
CREATE INDEX certificates_to_render_idx ON certificates (id) WHERE files_hash IS DISTINCT FROM content_hash AND revoked_at IS NULL;
-- Progress: drawings per minute.
CREATE INDEX certificates_rendered_at_idx ON certificates (contest_id, rendered_at) WHERE rendered_at IS NOT NULL;

-- Which computation the certificates were brought up to date with: the job walks the contestants
-- in id order (certificates_sync_cursor, for the computation certificates_sync_of) and marks the
-- computation done in certificates_synced_at; a recomputation (new computed_at) starts it again.
ALTER TABLE result_runs
  ADD COLUMN certificates_sync_of timestamptz,
  ADD COLUMN certificates_sync_cursor integer NOT NULL DEFAULT 0,
  ADD COLUMN certificates_synced_at timestamptz;
