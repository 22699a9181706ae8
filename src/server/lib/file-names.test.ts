import { describe, expect, it } from 'vitest';
import { cleanFileName } from './file-names';

describe('cleanFileName', () => {
  it('drops NUL, escapes, DEL, C1 controls and bidi overrides', () => {
    expect(cleanFileName('tr\u0000uong\u001b[31m.xlsx')).toBe('truong[31m.xlsx');
    expect(cleanFileName('a\u007Fb\u0085c\u009F.csv')).toBe('abc.csv');
    expect(cleanFileName('anh\u202Egpj.exe')).toBe('anhgpj.exe');
    expect(cleanFileName('\u2066x\u2069.txt')).toBe('x.txt');
  });

  it('keeps Vietnamese, takes the last part of a path, trims and caps the length', () => {
    expect(cleanFileName('Danh sách trường.xlsx')).toBe('Danh sách trường.xlsx');
    expect(cleanFileName('C:\\fakepath\\ds.xlsx')).toBe('ds.xlsx');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('  a.csv \t')).toBe('a.csv');
    expect(cleanFileName('ắ'.repeat(300))).toHaveLength(200);
    expect(cleanFileName(undefined)).toBe('');
  });
});
