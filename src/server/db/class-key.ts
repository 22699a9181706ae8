// The class key that groups pupils into classes (class prizes, teachers, the school report).
// Computed in SQL only, so that every comparison (a contestant's class, a teacher's class) is made
// the same way by the same database. Names need no trimming here: typed classes are normalised
// at input (normaliseClassName in shared/schemas/profile.ts) and class rooms come from the catalogue.
import { sql, type Expression, type RawBuilder } from 'kysely';
import { printedClassSql } from './contestants';

/** The key of a class name: upper case. */
export const classKeyOf = (name: Expression<string> | RawBuilder<string>) => sql<string>`upper(${name})`;

/** The key of a contestant's class (needs `contestants` joined with `class_rooms` on the left). */
export const contestantClassKey = classKeyOf(printedClassSql);
