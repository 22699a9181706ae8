-- Question quality (issue 25.1, docs/decisions/021-question-quality.md): a book's counts by
-- (question, rest score, answer, right) as last computed, so that opening the page reads them
-- instead of aggregating every finished exam again. Computed at the first view, again when the
-- organiser asks ("Tính lại") and forgotten by a regrade of one of the book's questions.
CREATE TABLE question_quality_counts (
  book_id integer PRIMARY KEY REFERENCES books (id) ON DELETE CASCADE,
  -- The finished exams of the book counted, and when.
  exams integer NOT NULL CHECK (exams >= 0),
  computed_at timestamptz NOT NULL,
  -- [[question_id, rest, answer_id (null: blank), right, count], ...]
  cells jsonb NOT NULL CHECK (jsonb_typeof(cells) = 'array')
);
