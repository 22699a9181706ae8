import { describe, expect, it } from 'vitest';
import { CLASS_ROOM_OTHER } from '../rules';
import { classNameKey, contestantInputSchema, normaliseClassName } from './profile';

describe('class names in a file', () => {
  it('match a class of the catalogue without "Lớp", white space or case', () => {
    expect(['Lớp 2B', 'lớp 2b', ' 2 B ', 'LỚP2B', '2B'].map(classNameKey)).toEqual(['2B', '2B', '2B', '2B', '2B']);
    expect(classNameKey(' 3c ')).toBe('3C');
    expect(classNameKey('Lớp Chồi')).toBe('CHỒI');
  });
});

describe('class names typed by a parent', () => {
  it('collapse every kind of white space (tabs, non-breaking spaces) and lose it at both ends', () => {
    expect(normaliseClassName('\t5A\u00a0 3\u00a0')).toBe('5A 3');
    expect(normaliseClassName(' 5a3 ')).toBe('5a3');
  });

  it('are stored normalised, so that one class has one key', () => {
    const child = { fullname: 'An', district_id: 1, school_id: 1, class_group_id: 1, class_room_id: CLASS_ROOM_OTHER, child_consent: true };
    const typed = ['5A 3', ' 5A\t3', '5A\u00a03\u00a0'].map((name) => contestantInputSchema.parse({ ...child, class_room_other: name }).class_room_other);
    expect(new Set(typed)).toEqual(new Set(['5A 3']));
  });

  it('made only of white space count as missing', () => {
    const child = { fullname: 'An', district_id: 1, school_id: 1, class_group_id: 1, class_room_id: CLASS_ROOM_OTHER, class_room_other: '\u00a0\t' };
    expect(contestantInputSchema.safeParse(child).success).toBe(false);
  });
});
