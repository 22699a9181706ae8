-- The education offices' read-only viewers (issue 41, decision 039): a province viewer (the
-- Department of Education) sees the whole province, a unit viewer the units listed here (rows of
-- districts: Quận/Huyện or Xã/Phường as the season says). Neither has a school: users_check
-- (0001: a school exactly for a school administrator) already holds that.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
  CHECK (role IN ('parent', 'school_admin', 'organiser', 'province_viewer', 'unit_viewer'));

-- A unit viewer's units. A unit is never deleted under a viewer (no cascade: the catalogue's
-- delete answers "in use"); a merge moves the viewer's rows to the unit it merges into first
-- (features/admin/catalog/repo.ts moveSchoolsAndDeleteDistrict).
CREATE TABLE viewer_units (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  district_id integer NOT NULL REFERENCES districts (id),
  PRIMARY KEY (user_id, district_id)
);
CREATE INDEX viewer_units_district_idx ON viewer_units (district_id);

-- A unit viewer has at least one unit and nobody else has any: checked at the commit (deferred),
-- so that an account and its units are written in either order, and a merge may move a viewer's
-- rows (delete, then insert) within its transaction.
CREATE FUNCTION check_viewer_units_of(account integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  account_role text;
  units integer;
BEGIN
  SELECT role INTO account_role FROM users WHERE id = account;
  IF NOT FOUND THEN RETURN; END IF; -- the account is gone (its units with it)
  SELECT count(*) INTO units FROM viewer_units WHERE user_id = account;
  IF account_role = 'unit_viewer' AND units = 0 THEN
    RAISE EXCEPTION 'a unit viewer needs at least one unit (user %)', account USING ERRCODE = '23514', CONSTRAINT = 'viewer_units_of_role';
  ELSIF account_role <> 'unit_viewer' AND units > 0 THEN
    RAISE EXCEPTION 'only a unit viewer has units (user %)', account USING ERRCODE = '23514', CONSTRAINT = 'viewer_units_of_role';
  END IF;
END $$;

CREATE FUNCTION check_viewer_units() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM check_viewer_units_of(NEW.id);
  ELSE
    IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM check_viewer_units_of(OLD.user_id); END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM check_viewer_units_of(NEW.user_id); END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER users_viewer_units AFTER INSERT OR UPDATE OF role ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION check_viewer_units();
CREATE CONSTRAINT TRIGGER viewer_units_of_role AFTER INSERT OR UPDATE OR DELETE ON viewer_units
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION check_viewer_units();
