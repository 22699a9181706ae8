-- Seasons (issue 26, decision 025): a contest row is one season. One season is current, chosen
-- by the organiser's switch (features/admin/seasons), never by creation order; earlier seasons
-- are read-only and kept whole. A season has its own books (and so question banks) and its own
-- contestants: a child who comes back next year gets a new contestant row in the new season,
-- linked to last year's (carried_from_id), so last year's exams, results, reports and
-- certificates keep reading last year's class and school unchanged, and attempts start again.

-- One current season ------------------------------------------------------------------------
ALTER TABLE contests ADD COLUMN is_current boolean NOT NULL DEFAULT false;
UPDATE contests SET is_current = true WHERE id = (SELECT max(id) FROM contests);
CREATE UNIQUE INDEX contests_one_current_idx ON contests (is_current) WHERE is_current;

-- A row written without a season belongs to the current one (the profile's enrolments, the
-- back office's new books): the code that writes for a season names it.
CREATE FUNCTION in_current_season() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.contest_id IS NULL THEN
    NEW.contest_id := (SELECT id FROM contests WHERE is_current);
  END IF;
  RETURN NEW;
END
$$;

-- Books of a season -------------------------------------------------------------------------
ALTER TABLE books ADD COLUMN contest_id integer REFERENCES contests (id);
UPDATE books SET contest_id = (SELECT id FROM contests WHERE is_current);
-- Existing exams name their book's season where the books were shared before.
UPDATE books b SET contest_id = e.contest_id
FROM (SELECT book_id, min(contest_id) AS contest_id FROM exams GROUP BY book_id) e
WHERE e.book_id = b.id AND b.contest_id IS DISTINCT FROM e.contest_id;
ALTER TABLE books ALTER COLUMN contest_id SET NOT NULL;
CREATE TRIGGER books_in_current_season BEFORE INSERT ON books FOR EACH ROW EXECUTE FUNCTION in_current_season();
-- Positions order the books within one season.
ALTER TABLE books DROP CONSTRAINT books_position_key;
ALTER TABLE books ADD CONSTRAINT books_position_key UNIQUE (contest_id, position);
ALTER TABLE books ADD CONSTRAINT books_id_contest_key UNIQUE (id, contest_id);
CREATE INDEX books_contest_idx ON books (contest_id, class_group_id);

-- Contestants of a season -------------------------------------------------------------------
ALTER TABLE contestants
  ADD COLUMN contest_id integer REFERENCES contests (id),
  -- Last season's row of the same child: the family's history, and never enrolled twice.
  ADD COLUMN carried_from_id integer REFERENCES contestants (id) ON DELETE SET NULL,
  -- Carried over into a new season: the class group is the next grade's, the class is asked again.
  ADD COLUMN class_pending boolean NOT NULL DEFAULT false;
UPDATE contestants c SET contest_id = coalesce(
  (SELECT min(e.contest_id) FROM exams e WHERE e.contestant_id = c.id),
  (SELECT id FROM contests WHERE is_current));
ALTER TABLE contestants ALTER COLUMN contest_id SET NOT NULL;
CREATE TRIGGER contestants_in_current_season BEFORE INSERT ON contestants FOR EACH ROW EXECUTE FUNCTION in_current_season();
-- Up to three children per account and season.
ALTER TABLE contestants DROP CONSTRAINT contestants_user_id_position_key;
ALTER TABLE contestants ADD CONSTRAINT contestants_user_id_position_key UNIQUE (user_id, contest_id, position);
ALTER TABLE contestants ADD CONSTRAINT contestants_id_contest_key UNIQUE (id, contest_id);
CREATE UNIQUE INDEX contestants_carried_once_idx ON contestants (carried_from_id) WHERE carried_from_id IS NOT NULL;
CREATE INDEX contestants_contest_school_idx ON contestants (contest_id, school_id);
-- A class, or (carried over, not yet answered) none.
ALTER TABLE contestants DROP CONSTRAINT contestants_check;
ALTER TABLE contestants ADD CONSTRAINT contestants_check CHECK (
  CASE WHEN class_pending THEN class_room_id IS NULL AND class_room_other IS NULL
       ELSE (class_room_id IS NULL) <> (class_room_other IS NULL) END);

-- An exam is of its contestant's season and of a book of that season.
ALTER TABLE exams ADD CONSTRAINT exams_contestant_season_fkey FOREIGN KEY (contestant_id, contest_id) REFERENCES contestants (id, contest_id);
ALTER TABLE exams ADD CONSTRAINT exams_book_season_fkey FOREIGN KEY (book_id, contest_id) REFERENCES books (id, contest_id);

-- The class teachers' list is one list for the site (the back office's Danh mục). A season that
-- stops being current keeps the teachers its prized classes had: the switch writes them here, and
-- the readers take this name before the list's.
ALTER TABLE class_results ADD COLUMN teacher_name text;

-- An earlier season's books and question banks are read-only: whatever path writes them (the
-- back office, an import, a regrade), the database refuses with SQLSTATE SN001 and the season's
-- name as the detail; the error handler answers 409 season_read_only with a Vietnamese message.
CREATE FUNCTION refuse_past_season(season_id integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  season record;
BEGIN
  SELECT name, is_current INTO season FROM contests WHERE id = season_id;
  IF FOUND AND NOT season.is_current THEN
    RAISE EXCEPTION 'season % is read-only', season_id USING ERRCODE = 'SN001', DETAIL = season.name;
  END IF;
END
$$;

CREATE FUNCTION books_current_season_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM refuse_past_season(OLD.contest_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM refuse_past_season(NEW.contest_id); END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
-- After books_in_current_season (triggers fire in name order): NEW.contest_id is set by then.
CREATE TRIGGER books_season_read_only BEFORE INSERT OR UPDATE OR DELETE ON books
  FOR EACH ROW EXECUTE FUNCTION books_current_season_only();

CREATE FUNCTION questions_current_season_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM refuse_past_season((SELECT contest_id FROM books WHERE id = OLD.book_id)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM refuse_past_season((SELECT contest_id FROM books WHERE id = NEW.book_id)); END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER questions_season_read_only BEFORE INSERT OR UPDATE OR DELETE ON questions
  FOR EACH ROW EXECUTE FUNCTION questions_current_season_only();

CREATE FUNCTION answers_current_season_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM refuse_past_season((SELECT b.contest_id FROM questions q JOIN books b ON b.id = q.book_id WHERE q.id = OLD.question_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM refuse_past_season((SELECT b.contest_id FROM questions q JOIN books b ON b.id = q.book_id WHERE q.id = NEW.question_id));
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER answers_season_read_only BEFORE INSERT OR UPDATE OR DELETE ON answers
  FOR EACH ROW EXECUTE FUNCTION answers_current_season_only();
