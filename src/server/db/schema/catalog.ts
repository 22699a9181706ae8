// The catalogue: districts, schools, class groups and rooms, class teachers (0004_results.sql),
// books and their question banks.
import type { ColumnType, Generated } from 'kysely';

export interface DistrictTable {
  id: Generated<number>;
  name: string;
  /** "Tỉnh cũ": the former province of a merged province's unit, '' when not known (0046). */
  former_province: Generated<string>;
}
export interface SchoolTable {
  id: Generated<number>;
  district_id: number;
  name: string;
  address: Generated<string>;
  pupil_count: Generated<number>;
  /** Closed from this season on (0046, the catalogue's move): kept for history, not offered, refused for enrolments. */
  closed_from_contest_id: Generated<number | null>;
  /** The school it was merged into by the move, if it was. */
  merged_into_id: Generated<number | null>;
}
/** An ended season's school name and unit as they were (0046, decision 038). */
export interface SchoolSnapshotTable {
  contest_id: number;
  school_id: number;
  name: string;
  address: string;
  district_id: number;
  district_name: string;
  former_province: string;
}
/**
 * The view season_schools (0046): a school as a season names it (its snapshot once the season has
 * ended, else today's catalogue). Join on (contest_id, id). Read only.
 */
export interface SeasonSchoolView {
  contest_id: number;
  id: number;
  name: string;
  address: string;
  district_id: number;
  district_name: string;
  former_province: string;
  pupil_count: number;
}
export interface ClassGroupTable { id: Generated<number>; name: string; grades: string; position: number }
export interface ClassRoomTable { id: Generated<number>; class_group_id: number; name: string; position: Generated<number> }
export interface ClassTeacherTable { school_id: number; class_name: string; teacher_name: string }
export interface BookTable {
  id: Generated<number>;
  class_group_id: number;
  name: string;
  author: Generated<string>;
  image: string;
  position: number;
  /** 0033_seasons.sql: the season; left out on insert, the current one (trigger). */
  contest_id: ColumnType<number, number | undefined, number>;
}
export interface QuestionTable {
  id: Generated<number>;
  book_id: number;
  value: string;
  audio: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0017_practice.sql: a practice question is never drawn into a real exam. */
  is_practice: ColumnType<boolean, boolean | undefined, boolean>;
}
export interface AnswerTable {
  id: Generated<number>;
  question_id: number;
  value: string;
  is_correct: Generated<boolean>;
  audio: ColumnType<string | null, string | null | undefined, string | null>;
}
/** 0022_question_bank_version.sql: one row, moved on by every write of questions or answers. */
export interface QuestionBankVersionTable {
  only_row: Generated<boolean>;
  version: number;
}
