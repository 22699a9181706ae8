// A child's grade from one season to the next (issue 26, decision 025). The database keeps the
// class group ('1-2', '3-4', '5') and the class; the grade is read from the class's name
// ("2A3", "4/1", "3") when it starts with a grade of the group, else it is the group's first.

export const LAST_GRADE = 5;

/** The grades a class group covers: '3-4' -> [3, 4], '5' -> [5]. */
export function gradesOf(groupGrades: string): number[] {
  const [from, to = from] = groupGrades.split('-').map((part) => Number.parseInt(part.trim(), 10));
  if (!Number.isInteger(from) || !Number.isInteger(to)) return [];
  return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
}

/** The grade of a child of the group in the class named `className` (null: the class is not known). */
export function gradeOf(groupGrades: string, className: string | null): number | null {
  const grades = gradesOf(groupGrades);
  if (grades.length === 0) return null;
  const leading = className === null ? NaN : Number.parseInt(className.trim(), 10);
  return grades.includes(leading) ? leading : grades[0]!;
}

/** The group of the grade among the groups (null past the last grade, or no group for it). */
export function groupOfGrade<G extends { grades: string }>(groups: G[], grade: number): G | null {
  if (grade > LAST_GRADE) return null;
  return groups.find((group) => gradesOf(group.grades).includes(grade)) ?? null;
}
