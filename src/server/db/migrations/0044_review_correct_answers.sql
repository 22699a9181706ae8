-- When the result review shows the correct answers (issue 40): right after the submit (the
-- specification's, the default) or once the season's exam window has closed, so that a sibling's
-- or a classmate's finished review is not the answer key while others still sit the exam.
ALTER TABLE contests ADD COLUMN review_correct_answers text NOT NULL DEFAULT 'after_submit'
  CHECK (review_correct_answers IN ('after_submit', 'after_exam_window'));
