import { describe, expect, it } from 'vitest';
import { columnTitlesOf, headerKey, templateColumns, templateKinds } from './admin';

describe('import column titles', () => {
  it('compares header cells in any case, with or without accents, spaces around "/" and a trailing ":" aside', () => {
    expect(headerKey(' Quận / Huyện: ')).toBe(headerKey('Quận/Huyện'));
    expect(headerKey('QUAN/HUYEN')).toBe(headerKey('Quận/Huyện'));
    expect(headerKey('Số điện thoại*')).toBe(headerKey('so dien thoai'));
  });

  it.each(templateKinds)('gives each title of %s one column, every template title included', (kind) => {
    const titles = columnTitlesOf(kind);
    for (const column of templateColumns[kind]) expect(titles.get(headerKey(column))).toBe(column);
    expect(titles.get(headerKey('Giáo viên chủ nhiệm'))).toBe(kind === 'class-teachers' ? 'Giáo viên' : undefined);
  });

  it('never lets two columns of a template share a title (columnTitlesOf would throw)', () => {
    for (const kind of templateKinds) expect(() => columnTitlesOf(kind)).not.toThrow();
  });
});
