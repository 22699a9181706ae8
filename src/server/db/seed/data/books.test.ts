import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classGroups } from './books';

const publicDir = fileURLToPath(new URL('../../../../web/public', import.meta.url));
const books = classGroups.flatMap((g) => g.books);

describe('demo books and question banks', () => {
  it('has three class groups of three books each, in the spec order', () => {
    expect(classGroups.map((g) => [g.name, g.grades])).toEqual([
      ['Nhóm 1', '1-2'],
      ['Nhóm 2', '3-4'],
      ['Nhóm 3', '5'],
    ]);
    for (const group of classGroups) expect(group.books).toHaveLength(3);
    expect(classGroups[0]!.classRooms).toContain('2A1');
    expect(classGroups[2]!.classRooms).toEqual(expect.arrayContaining(['5A1', '5A3']));
  });

  it('gives nine distinct books, each with its own cover and no genre given as its author', () => {
    expect(new Set(books.map((b) => b.name)).size).toBe(9);
    books.forEach((book, i) => {
      expect(book.author, book.name).not.toMatch(/truyện|truyền thuyết|cổ tích/i);
      expect(book.image).toBe(`/images/books/book-${i + 1}.svg`);
      expect(existsSync(`${publicDir}${book.image}`), book.image).toBe(true);
    });
  });

  it.each(books.map((b) => [b.name, b] as const))('%s has a well-formed question bank', (_name, book) => {
    expect(book.questions.length).toBeGreaterThanOrEqual(30);
    const texts = book.questions.map((q) => q.value.trim());
    expect(new Set(texts).size, 'duplicate question text').toBe(texts.length);
    for (const q of book.questions) {
      expect(q.value.trim()).not.toBe('');
      expect(q.answers).toHaveLength(4);
      for (const a of q.answers) expect(a.trim(), q.value).not.toBe('');
      expect(new Set(q.answers.map((a) => a.trim())).size, q.value).toBe(4);
      expect([0, 1, 2, 3], q.value).toContain(q.correct);
    }
    // A child must not be able to score by always picking the same letter.
    const positions = new Set(book.questions.map((q) => q.correct));
    expect(positions.size).toBeGreaterThan(1);
  });
});
