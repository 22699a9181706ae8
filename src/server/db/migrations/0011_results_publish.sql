-- Results are shown to families and schools only once the organiser publishes them (issue 13), on
-- or after the contest's results date; until then a computation is a draft the organiser reviews.
-- Recomputing (after a regrade, say) keeps the publication: the results stay public and change.
ALTER TABLE result_runs
  ADD COLUMN published_at timestamptz,
  ADD COLUMN published_by integer REFERENCES users (id) ON DELETE SET NULL;

-- Results computed before this migration were shown from the results date: keep them public.
UPDATE result_runs r SET published_at = c.results_at
FROM contests c WHERE c.id = r.contest_id AND c.results_at <= now();
