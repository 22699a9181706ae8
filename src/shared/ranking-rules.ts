// The ranking and prize rules in words, for the rules page and the reports. The server applies
// them in src/server/core/ranking/ranking.ts; the school score formula is
// SCHOOL_SCORE_FORMULA in ./prizes.ts.
import type { TieScope } from './schemas/admin-results';

/** How contestants are ranked (spec section 9), in the order the rules apply. */
export const INDIVIDUAL_RANKING_RULES = [
  'Kết quả của mỗi thí sinh là bài thi tốt nhất trong các lần thi.',
  'Xếp hạng theo điểm thi từ cao xuống thấp.',
  'Nếu bằng điểm: thời gian làm bài ngắn hơn xếp trên.',
  'Nếu vẫn bằng nhau: nộp bài sớm hơn xếp trên (tính theo giây, như giờ nộp bài gia đình được xem; nộp trong cùng một giây là bằng nhau).',
  'Nếu vẫn bằng nhau: câu dự đoán gần với số bài thi thực tế (số bài thi đã nộp khi kết thúc thời gian thi) hơn xếp trên.',
] as const;

/** What happens when the four rules cannot separate two contestants. */
export const TIE_RULE =
  'Các thí sinh vẫn bằng nhau sau cả bốn tiêu chí được xếp đồng hạng và nhận giải của thứ hạng đó; Ban tổ chức được thông báo về mọi trường hợp đồng hạng.';

/**
 * What the members of a tie are equal on, by the kind of prize (the back office's tie boxes):
 * pupils by the four rules above, schools by their one ranking score (SCHOOL_SCORE_FORMULA),
 * classes by the three rules of teacherPrizeRule.
 */
export const TIE_CRITERIA: Record<TieScope, string> = {
  individual: 'Bằng nhau theo cả bốn tiêu chí xếp hạng thí sinh: điểm thi, thời gian làm bài, giây nộp bài, dự đoán.',
  school_pupils: 'Bằng nhau theo cả bốn tiêu chí xếp hạng thí sinh trong trường: điểm thi, thời gian làm bài, giây nộp bài, dự đoán.',
  schools:
    'Bằng nhau về điểm xếp hạng của trường: 0,5 × số học sinh dự thi (so với trường có nhiều học sinh dự thi nhất) + 0,5 × tỉ lệ dự thi trên sĩ số (so với tỉ lệ cao nhất).',
  classes: 'Bằng nhau theo cả ba tiêu chí của giải Giáo viên truyền lửa: điểm trung bình của lớp, số học sinh dự thi, thời gian làm bài trung bình.',
};

/** The 'Giáo viên truyền lửa' rule: prizes go to classes; the teacher named is the class's teacher. */
export function teacherPrizeRule(minParticipants: number): string {
  return (
    `Giải Giáo viên truyền lửa trao cho các lớp có từ ${minParticipants} học sinh dự thi trở lên, ` +
    'xếp theo điểm trung bình của lớp (mỗi học sinh lấy bài thi tốt nhất) từ cao xuống thấp; ' +
    'nếu bằng nhau thì lớp có nhiều học sinh dự thi hơn xếp trên, rồi đến lớp có thời gian làm bài trung bình ngắn hơn. ' +
    'Giải ghi tên giáo viên chủ nhiệm của lớp.'
  );
}

/** Default minimum number of participants of a class for the teacher prizes (a contest setting). */
export const DEFAULT_CLASS_MIN_PARTICIPANTS = 10;
