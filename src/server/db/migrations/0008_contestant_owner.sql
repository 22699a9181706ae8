-- One owner rule for exams, and typed class names stored normalised.
-- exams.user_id is the exam's owner everywhere (the save's SQL and every other query); the
-- composite foreign key of 0005 keeps it equal to contestants.user_id. A contestant never moves to
-- another account either: its exams, results and certificates stay with the parent who enrolled it
-- (ON UPDATE CASCADE of 0005 can then never fire).
CREATE FUNCTION contestants_keep_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'contestants.user_id cannot change (contestant %)', OLD.id USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER contestants_keep_owner BEFORE UPDATE OF user_id ON contestants
  FOR EACH ROW WHEN (NEW.user_id IS DISTINCT FROM OLD.user_id) EXECUTE FUNCTION contestants_keep_owner();

-- Typed classes are normalised at input from now on (normaliseClassName in
-- shared/schemas/profile.ts: every run of white space, tabs and non-breaking spaces included, is
-- one space, none at either end); the rows written before get the same, so that the class key
-- (db/class-key.ts) needs no trimming.
UPDATE contestants
SET class_room_other = btrim(regexp_replace(class_room_other, '[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'))
WHERE class_room_other IS NOT NULL
  AND class_room_other <> btrim(regexp_replace(class_room_other, '[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'));
