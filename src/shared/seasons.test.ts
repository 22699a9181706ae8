import { describe, expect, it } from 'vitest';
import { gradeOf, gradesOf, groupOfGrade } from './seasons';

const groups = [
  { id: 1, grades: '1-2' },
  { id: 2, grades: '3-4' },
  { id: 3, grades: '5' },
];

describe('a child moving up a grade', () => {
  it('reads the grades of a group', () => {
    expect(gradesOf('1-2')).toEqual([1, 2]);
    expect(gradesOf('5')).toEqual([5]);
    expect(gradesOf('x')).toEqual([]);
  });

  it('reads the grade from the class name when it is one of the group, else the group’s first', () => {
    expect(gradeOf('1-2', '2A3')).toBe(2);
    expect(gradeOf('3-4', '4/1')).toBe(4);
    expect(gradeOf('3-4', 'A1')).toBe(3);
    expect(gradeOf('1-2', '5A1')).toBe(1);
    expect(gradeOf('5', null)).toBe(5);
  });

  it('finds the next grade’s group, none past grade 5', () => {
    expect(groupOfGrade(groups, 3)?.id).toBe(2);
    expect(groupOfGrade(groups, 5)?.id).toBe(3);
    expect(groupOfGrade(groups, 6)).toBeNull();
  });
});
