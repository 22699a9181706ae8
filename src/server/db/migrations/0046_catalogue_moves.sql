-- Moving the catalogue to a new map between seasons (issue 36, decision 038).
--
-- A unit (a row of districts: a district, or a commune when the season says so) may keep the
-- former province it came from ("Tỉnh cũ"), for a merged province whose education office still
-- reports by former province. Empty when not known.
ALTER TABLE districts ADD COLUMN former_province text NOT NULL DEFAULT ''
  CHECK (length(former_province) <= 120);

-- A school that no longer exists is closed from a season on, never deleted: its pupils, results and
-- certificates of earlier seasons keep pointing at it. A school merged into another by the move
-- names the school it became (its pupils of the season moved there).
ALTER TABLE schools ADD COLUMN closed_from_contest_id integer REFERENCES contests (id);
ALTER TABLE schools ADD COLUMN merged_into_id integer REFERENCES schools (id);
ALTER TABLE schools ADD CONSTRAINT schools_merged_is_closed CHECK (merged_into_id IS NULL OR closed_from_contest_id IS NOT NULL);

-- Each ended season's school names and units as they were: written when a season ends (the
-- switch) and, for a season that ended before this table, when the catalogue is moved (or here,
-- below). Never updated. No key to districts: a unit may be merged away later, its name stays.
CREATE TABLE school_snapshots (
  contest_id integer NOT NULL REFERENCES contests (id),
  school_id integer NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
  name text NOT NULL,
  address text NOT NULL,
  district_id integer NOT NULL,
  district_name text NOT NULL,
  former_province text NOT NULL,
  PRIMARY KEY (contest_id, school_id)
);

-- A school of a season as that season names it: the snapshot of an ended season, else today's
-- catalogue (the current season, and a school the snapshot does not hold). The readers of a season
-- join it on (contest_id, id); the planner folds the view into their query (no cross product is
-- built: both keys are equalities).
CREATE VIEW season_schools AS
SELECT
  c.id AS contest_id,
  s.id,
  coalesce(ss.name, s.name) AS name,
  coalesce(ss.address, s.address) AS address,
  coalesce(ss.district_id, s.district_id) AS district_id,
  coalesce(ss.district_name, d.name) AS district_name,
  coalesce(ss.former_province, d.former_province) AS former_province,
  s.pupil_count
FROM contests c
CROSS JOIN schools s
JOIN districts d ON d.id = s.district_id
LEFT JOIN school_snapshots ss ON ss.contest_id = c.id AND ss.school_id = s.id;

-- The seasons that have ended already keep the catalogue as it is now (the best there is).
INSERT INTO school_snapshots (contest_id, school_id, name, address, district_id, district_name, former_province)
SELECT c.id, s.id, s.name, s.address, s.district_id, d.name, d.former_province
FROM contests c CROSS JOIN schools s JOIN districts d ON d.id = s.district_id
WHERE NOT c.is_current;
