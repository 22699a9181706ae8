// The body of POST /api/admin/seasons for a season opened after the current one: for the tests that
// need a next season to exist (the season's own journey is seasons.api.test.ts and e2e/season.spec.ts).
const DAY = 86_400_000;

/** A season whose exam opens 300 days after `currentExamEndsAt`, with one new book of `classGroupId`, copying the season's people and settings. */
export function nextSeasonBody(currentExamEndsAt: Date | string, classGroupId: number, name = 'Mùa thi trên bản đồ mới') {
  const start = new Date(currentExamEndsAt).getTime() + 300 * DAY;
  const iso = (days: number) => new Date(start + days * DAY).toISOString();
  return {
    name,
    reading_starts_at: iso(-30),
    reading_ends_at: iso(-1),
    exam_starts_at: iso(0),
    exam_ends_at: iso(12),
    results_at: iso(20),
    ceremony_starts_at: iso(25),
    ceremony_ends_at: iso(26),
    copy: { prize_settings: true, class_teachers: true, school_admins: true, footer: true },
    books: [{ name: 'Sách mới', author: 'Tác giả', class_group_id: classGroupId, copy_questions_from: null }],
  };
}
