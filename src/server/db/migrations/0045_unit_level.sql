-- The level under the province, a setting of each season (issue 36, decision 037): the
-- specification's districts (quận/huyện, the default) or, on the map since 1 July 2025 that has
-- no district level, communes and wards (xã/phường). The catalogue's tables keep their names
-- (districts, district_id); only what is said about them follows the season.
ALTER TABLE contests ADD COLUMN unit_level text NOT NULL DEFAULT 'district'
  CHECK (unit_level IN ('district', 'commune'));
