import { describe, expect, it } from 'vitest';
import { linesOf, normaliseQuestionText } from './question-text';

describe('linesOf', () => {
  it('gives the lines split() gives, from the whole text or from any cut of it into pieces', () => {
    const texts = ['', 'a', 'a\n', 'a\r\nb\rc\n\nd', '\r\n\r\n', 'x\r', 'Câu 1\r\n{=A ~B}\r\n\r\nCâu 2\n'];
    for (const text of texts) {
      const expected = text.split(/\r\n|\r|\n/).map((line, i) => ({ line, row: i + 1 }));
      expect([...linesOf(text)]).toEqual(expected);
      for (let cut = 0; cut <= text.length; cut++) {
        for (let second = cut; second <= text.length; second++) {
          expect([...linesOf([text.slice(0, cut), text.slice(cut, second), text.slice(second)])]).toEqual(expected);
        }
      }
    }
  });
});

describe('normaliseQuestionText', () => {
  it('keeps line breaks of any kind, tidies each line and keeps at most one blank line', () => {
    expect(normaliseQuestionText(' Dòng một \r\nDòng\u00a0 hai\rDòng ba\n\n\n\nHỏi?\n')).toBe('Dòng một\nDòng hai\nDòng ba\n\nHỏi?');
  });
  it('is the one-line form for text of one line', () => {
    expect(normaliseQuestionText('  Con  gì   kêu meo meo? ')).toBe('Con gì kêu meo meo?');
  });
});
