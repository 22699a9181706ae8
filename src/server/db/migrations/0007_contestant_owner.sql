-- One owner rule for exams. exams.user_id is the exam's owner everywhere (the save's SQL and every
-- other query); the composite foreign key of 0005 keeps it equal to contestants.user_id. A
-- contestant never moves to another account either: its exams, results and certificates stay with
-- the parent who enrolled it. (ON UPDATE CASCADE of 0005 can then never fire.)
CREATE FUNCTION contestants_keep_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'contestants.user_id cannot change (contestant %)', OLD.id USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER contestants_keep_owner BEFORE UPDATE OF user_id ON contestants
  FOR EACH ROW WHEN (NEW.user_id IS DISTINCT FROM OLD.user_id) EXECUTE FUNCTION contestants_keep_owner();
