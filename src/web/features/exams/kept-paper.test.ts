import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExamingResponse } from '../../../shared/schemas/exams';
import { forgetPaper, keepPaper, keptPaper } from './kept-paper';

const paper = (slug: string) => ({ success: true, data: { slug, end_time: '2026-05-01T08:20:00.000Z' } }) as unknown as ExamingResponse;

describe('the paper kept on the device', () => {
  let data: Record<string, string>;
  beforeEach(() => {
    data = {};
    vi.stubGlobal('window', {
      localStorage: {
        getItem: (key: string) => data[key] ?? null,
        setItem: (key: string, value: string) => void (data[key] = value),
        removeItem: (key: string) => void delete data[key],
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is given back for its address and the account that loaded it only, one paper at a time', () => {
    keepPaper('1/2/slug-one', 7, paper('slug-one'), 1_500);
    expect(keptPaper('1/2/slug-one', 7)).toEqual({ exam: paper('slug-one'), offsetMs: 1_500 });
    expect(keptPaper('1/2/slug-one', 8)).toBeUndefined();
    expect(keptPaper('1/2/slug-two', 7)).toBeUndefined();
    keepPaper('slug-two', 7, paper('slug-two'), 0);
    expect(keptPaper('1/2/slug-one', 7)).toBeUndefined();
    expect(keptPaper('slug-two', 7)?.exam.data.slug).toBe('slug-two');
  });

  it('is forgotten when its paper ends (by slug or address) or at logout, not for another paper', () => {
    keepPaper('1/2/slug-one', 7, paper('slug-one'), 0);
    forgetPaper({ slug: 'slug-two' });
    forgetPaper({ paperKey: 'slug-two' });
    expect(keptPaper('1/2/slug-one', 7)).toBeDefined();
    forgetPaper({ slug: 'slug-one' });
    expect(keptPaper('1/2/slug-one', 7)).toBeUndefined();
    keepPaper('1/2/slug-one', 7, paper('slug-one'), 0);
    forgetPaper({ paperKey: '1/2/slug-one' });
    expect(data).toEqual({});
    keepPaper('1/2/slug-one', 7, paper('slug-one'), 0);
    forgetPaper('all');
    expect(data).toEqual({});
  });

  it('ignores a damaged copy and forgets it', () => {
    data['exam-paper'] = '{not json';
    expect(keptPaper('1/2/slug-one', 7)).toBeUndefined();
    forgetPaper({ slug: 'slug-one' });
    expect(data).toEqual({});
  });
});
