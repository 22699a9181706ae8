// Shapes of the demo content in this folder.

export interface SeedSchool {
  name: string;
  address: string;
  pupilCount: number;
}
export interface SeedDistrict {
  name: string;
  schools: SeedSchool[];
}
export interface SeedQuestion {
  value: string;
  /** Exactly four answers. */
  answers: [string, string, string, string];
  /** Index (0-3) of the correct answer in `answers`. */
  correct: 0 | 1 | 2 | 3;
}
export interface SeedBook {
  name: string;
  /** The writer; '' for a folk tale or legend, which has none (a genre is not an author). */
  author: string;
  /** Public path of the cover, e.g. /images/books/book-1.svg */
  image: string;
  /** At least 30 questions. */
  questions: SeedQuestion[];
}
export interface SeedClassGroup {
  name: string;
  grades: string;
  classRooms: string[];
  /** Three books, in the order of spec section 9. */
  books: SeedBook[];
}
export interface SeedNewsPost {
  slug: string;
  name: string;
  image: string;
  bodyHtml: string;
  /** When the post was written (from the contest's dates). */
  publishedAt: Date;
}
