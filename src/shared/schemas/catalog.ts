import { z } from 'zod';
import { idParam } from './common';
import { unitLevels } from '../unit-level';

export const namedItemSchema = z.object({ id: z.number().int(), name: z.string() });
export const schoolSchema = namedItemSchema.extend({ address: z.string() });
export const bookSchema = z.object({ id: z.number().int(), name: z.string(), image: z.string(), author: z.string() });
/** A class group with the grades it covers ('1-2', '3-4', '5'). */
export const classGroupSchema = namedItemSchema.extend({ grades: z.string() });
export const classGroupWithBooksSchema = classGroupSchema.extend({ books: z.array(bookSchema) });

export const listResponse = <T extends z.ZodType>(item: T) => z.object({ success: z.literal(true), data: z.array(item) });

/**
 * GET /api/districts: the spec's {success, data}, and the level these units are of in the current
 * season (issue 36), so that a client labels them ("Quận/Huyện" or "Xã/Phường").
 */
export const districtsResponseSchema = listResponse(namedItemSchema).extend({ unit_level: z.enum(unitLevels), unit_label: z.string() });

export const schoolsQuerySchema = z.object({ district_id: idParam('district_id') });
export const classRoomsQuerySchema = z.object({ class_group_id: idParam('class_group_id') });

export type NamedItem = z.infer<typeof namedItemSchema>;
export type School = z.infer<typeof schoolSchema>;
export type ClassGroup = z.infer<typeof classGroupSchema>;
export type Book = z.infer<typeof bookSchema>;
export type ClassGroupWithBooks = z.infer<typeof classGroupWithBooksSchema>;
