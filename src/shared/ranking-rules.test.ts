import { describe, expect, it } from 'vitest';
import { TIE_CRITERIA } from './ranking-rules';
import { tieScopes } from './schemas/admin-results';

const PUPIL_CRITERIA = ['điểm thi', 'thời gian làm bài', 'giây nộp bài', 'dự đoán'];

describe('TIE_CRITERIA: what a tie box says its members are equal on', () => {
  it('has a sentence for every kind of tie', () => {
    expect(Object.keys(TIE_CRITERIA).sort()).toEqual([...tieScopes].sort());
  });

  it('cites the four pupil criteria, in their order, for pupils', () => {
    for (const scope of ['individual', 'school_pupils'] as const) {
      const text = TIE_CRITERIA[scope];
      const at = PUPIL_CRITERIA.map((criterion) => text.indexOf(criterion));
      expect(at.every((index) => index >= 0)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
    }
  });

  it('cites the school ranking score (participants and participation rate, 50:50) for schools, none of the pupil criteria', () => {
    const text = TIE_CRITERIA.schools;
    expect(text).toContain('điểm xếp hạng của trường');
    expect(text).toContain('0,5 × số học sinh dự thi');
    expect(text).toContain('0,5 × tỉ lệ dự thi trên sĩ số');
    for (const criterion of [...PUPIL_CRITERIA, 'bốn tiêu chí']) expect(text).not.toContain(criterion);
  });

  it('cites the three class criteria for the teacher prizes', () => {
    expect(TIE_CRITERIA.classes).toContain('điểm trung bình của lớp, số học sinh dự thi, thời gian làm bài trung bình');
    expect(TIE_CRITERIA.classes).not.toContain('giây nộp bài');
  });
});
