import { describe, expect, it } from 'vitest';
import { columnTitlesOf, headerKey, importColumnsHint, templateColumns, templateKinds } from './admin';

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

describe('importColumnsHint: the line under a template link', () => {
  it('names the columns a question file has, and examples of other titles the question import reads', () => {
    expect(importColumnsHint('questions')).toBe(
      'các cột: Câu hỏi, Đáp án A, Đáp án B, Đáp án C, Đáp án D, Đáp án đúng (Đáp án C, Đáp án D có thể để trống); ' +
        'có thể theo thứ tự bất kỳ, với tên cột của mẫu hoặc tên quen dùng (như “Nội dung câu hỏi” cho “Câu hỏi”, “Phương án A” cho “Đáp án A”).',
    );
    expect(importColumnsHint('questions')).not.toMatch(/Giáo viên|SĐT/);
  });

  it.each(templateKinds)('gives %s only its own columns, and examples its import accepts as those columns', (kind) => {
    const hint = importColumnsHint(kind);
    expect(hint).toContain(`các cột: ${templateColumns[kind].join(', ')}`);
    const titles = columnTitlesOf(kind);
    const examples = [...hint.matchAll(/“([^”]+)” cho “([^”]+)”/g)];
    expect(examples.length).toBeGreaterThan(0);
    for (const [, title, column] of examples) expect(titles.get(headerKey(title!))).toBe(column);
  });
});
