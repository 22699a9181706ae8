// The contest's nine books in their three class groups (spec section 9): Vietnamese folk tales and
// legends, all in the public domain, each with its own question bank in books/book-N.ts.
import { classRoomsOfGrade } from './catalog';
import type { SeedClassGroup } from './types';
import { book1 } from './books/book-1';
import { book2 } from './books/book-2';
import { book3 } from './books/book-3';
import { book4 } from './books/book-4';
import { book5 } from './books/book-5';
import { book6 } from './books/book-6';
import { book7 } from './books/book-7';
import { book8 } from './books/book-8';
import { book9 } from './books/book-9';

export const classGroups: SeedClassGroup[] = [
  { name: 'Nhóm 1', grades: '1-2', classRooms: [...classRoomsOfGrade(1), ...classRoomsOfGrade(2)], books: [book1, book2, book3] },
  { name: 'Nhóm 2', grades: '3-4', classRooms: [...classRoomsOfGrade(3), ...classRoomsOfGrade(4)], books: [book4, book5, book6] },
  { name: 'Nhóm 3', grades: '5', classRooms: classRoomsOfGrade(5), books: [book7, book8, book9] },
];
