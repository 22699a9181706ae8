import { describe, expect, it } from 'vitest';
import { attemptsNote } from './attempts';

describe('attemptsNote', () => {
  it('gives the spec texts for 0, 1, 2 and 3 exams', () => {
    expect(attemptsNote(0)).toBe('Thí sinh chưa thi nên số lần còn được tham gia thi: 03 lần');
    expect(attemptsNote(1)).toBe('Số lần còn được tham gia thi: 2');
    expect(attemptsNote(2)).toBe('Số lần còn được tham gia thi: 1');
    expect(attemptsNote(3)).toBe('Thí sinh đã hết lượt thi');
  });

  it('counts from the attempts the contest allows when the organiser set fewer', () => {
    expect(attemptsNote(0, 2)).toBe('Số lần còn được tham gia thi: 2');
    expect(attemptsNote(1, 2)).toBe('Số lần còn được tham gia thi: 1');
    expect(attemptsNote(2, 2)).toBe('Thí sinh đã hết lượt thi');
  });
});
