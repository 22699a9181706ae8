// The back office's catalogue (/api/admin): districts, schools, class groups and class rooms, and
// the teacher of each class of each school. The same schemas check the API's input and the forms.
import { z } from 'zod';
import { idSchema, intFields } from './common';
import { classNameKey, normaliseClassName } from './profile';
import { pageQuerySchema, sortQuery } from './admin';
import { catalogMessages } from '../messages/admin';
import { catalogLimits } from '../rules';



const text = (max: number, required: string) =>
  z
    .string({ error: required })
    .transform((value) => value.normalize('NFC').replace(/\s+/gu, ' ').trim())
    .pipe(z.string().min(1, { error: required }).max(max, { error: catalogMessages.tooLong(max) }));

/** An id chosen in a form (select values are text) or sent as a JSON number. */
const chosenId = (error: string) => idSchema(error);

const wholeNumber = (max: number, error: string) => z.coerce.number({ error }).int({ error }).min(0, { error }).max(max, { error });

// Inputs ----------------------------------------------------------------------------------------
export const districtInputSchema = z.object({ name: text(catalogLimits.districtName, catalogMessages.nameRequired) });
export type DistrictInput = z.input<typeof districtInputSchema>;

export const schoolInputSchema = z.object({
  district_id: chosenId(catalogMessages.districtRequired),
  name: text(catalogLimits.schoolName, catalogMessages.nameRequired),
  address: z
    .string()
    .default('')
    .transform((value) => value.normalize('NFC').replace(/\s+/gu, ' ').trim())
    .pipe(z.string().max(catalogLimits.address, { error: catalogMessages.tooLong(catalogLimits.address) })),
  pupil_count: wholeNumber(catalogLimits.pupilCount, catalogMessages.pupilCount),
});
export type SchoolInput = z.input<typeof schoolInputSchema>;
export type SchoolValues = z.output<typeof schoolInputSchema>;

export const classGroupInputSchema = z.object({
  name: text(catalogLimits.groupName, catalogMessages.nameRequired),
  grades: text(catalogLimits.grades, catalogMessages.gradesRequired),
  position: wholeNumber(999, catalogMessages.position),
});
export type ClassGroupInput = z.input<typeof classGroupInputSchema>;

/**
 * The one rule for a class of the catalogue's name, from the dialog or an import: classNameKey
 * (" 3c " and "Lớp 3C" are "3C"), so that a class is spelt one way everywhere.
 */
export const classRoomName = z
  .string({ error: catalogMessages.nameRequired })
  .transform(classNameKey)
  .pipe(z.string().min(1, { error: catalogMessages.nameRequired }).max(catalogLimits.roomName, { error: catalogMessages.tooLong(catalogLimits.roomName) }));

export const classRoomInputSchema = z.object({
  class_group_id: chosenId(catalogMessages.groupRequired),
  name: classRoomName,
  position: wholeNumber(999, catalogMessages.position).default(0),
});
export type ClassRoomInput = z.input<typeof classRoomInputSchema>;

/** A class's name as the profile stores typed classes (normaliseClassName); keyed in upper case by the database. */
export const className = z
  .string({ error: catalogMessages.classRequired })
  .transform((value) => normaliseClassName(value.normalize('NFC')))
  .pipe(z.string().min(1, { error: catalogMessages.classRequired }).max(catalogLimits.className, { error: catalogMessages.tooLong(catalogLimits.className) }));

export const classTeacherInputSchema = z.object({
  school_id: chosenId(catalogMessages.schoolRequired),
  class_name: className,
  teacher_name: text(catalogLimits.teacherName, catalogMessages.teacherRequired),
});
export type ClassTeacherInput = z.input<typeof classTeacherInputSchema>;

export const mergeInputSchema = z.object({ into_id: chosenId(catalogMessages.mergeTargetRequired) });
export type MergeInput = z.input<typeof mergeInputSchema>;

// Queries ---------------------------------------------------------------------------------------
const optionalId = z
  .union([z.literal(''), idSchema()])
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** Each list's sortable columns (`sort`), named as its items' fields; the lists' own orders are in the repo. */
export const districtSortKeys = ['name', 'schools'] as const;
export const schoolSortKeys = ['name', 'district_name', 'address', 'pupil_count', 'contestants'] as const;
export const classGroupSortKeys = ['position', 'name', 'grades', 'class_rooms', 'books', 'contestants'] as const;
export const classRoomSortKeys = ['name', 'class_group_name', 'position', 'contestants'] as const;
export const classTeacherSortKeys = ['district_name', 'school_name', 'class_name', 'teacher_name'] as const;

export const districtsQuerySchema = pageQuerySchema.extend(sortQuery(districtSortKeys));
export const schoolsQuerySchema = pageQuerySchema.extend({ district_id: optionalId, ...sortQuery(schoolSortKeys) });
export const classGroupsQuerySchema = pageQuerySchema.extend(sortQuery(classGroupSortKeys));
export const classRoomsQuerySchema = pageQuerySchema.extend({ class_group_id: optionalId, ...sortQuery(classRoomSortKeys) });
export const classTeachersQuerySchema = pageQuerySchema.extend({ district_id: optionalId, school_id: optionalId, ...sortQuery(classTeacherSortKeys) });

export const idParamsSchema = z.object({ id: idSchema() });
export const classTeacherParamsSchema = z.object({
  school_id: idSchema(),
  class_name: z.string().min(1).max(catalogLimits.className),
});

// Answers ---------------------------------------------------------------------------------------
export const adminDistrictSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  schools: z.number().int(),
  /** The former province of a merged province's unit ("Tỉnh cũ", decision 038), '' when not known. */
  former_province: z.string(),
});
export type AdminDistrict = z.infer<typeof adminDistrictSchema>;

/** What uses a school: each count is what a merge moves (results are recomputed). */
export const schoolUsageSchema = z.object({
  ...intFields('contestants', 'school_admins', 'class_teachers', 'results'),
});
export type SchoolUsage = z.infer<typeof schoolUsageSchema>;

/** A query naming where a merge would go: GET …/merge?into_id= counts what would move. */
export const mergeQuerySchema = z.object({ into_id: idSchema() });

/**
 * A class both merged schools have (one classNameKey: "5A1", "Lớp 5 a1"): one class after the
 * merge, with the kept school's spelling and teacher (else the merged one's). `pupils_renamed`:
 * pupils whose typed class takes that spelling; `dropped_teacher`: the merged school's other teacher.
 */
export const joinedClassSchema = z.object({
  class_name: z.string(),
  kept_teacher: z.string().nullable(),
  dropped_teacher: z.string().nullable(),
  pupils_renamed: z.number().int(),
});

/**
 * What merging school `from` into `into` moves and changes, counted before confirming (and the
 * same counts, as merged, in the answer and the audit). `refusal`: why it cannot be merged.
 */
export const schoolMergePreviewSchema = z.object({
  from: z.object({ id: z.number().int(), name: z.string(), district_name: z.string() }),
  into: z.object({ id: z.number().int(), name: z.string(), district_name: z.string() }),
  ...intFields('contestants', 'exams', 'school_admins'),
  /** Class teachers that move to the kept school. */
  class_teachers: z.number().int(),
  /** Classes both schools have: merged, the kept school's teacher stays. */
  joined_classes: z.array(joinedClassSchema),
  /** Prizes of its pupils in the stored results (they move with them). */
  pupil_prizes: z.number().int(),
  /** The school's own prizes in the stored results (school, classes): dropped until the results are computed again. */
  school_prizes: z.array(z.string()),
  /** Results have been computed: they must be computed again after the merge. */
  results_computed: z.boolean(),
  refusal: z.string().nullable(),
});
export type SchoolMergePreview = z.infer<typeof schoolMergePreviewSchema>;

/** What merging district `from` into `into` moves: its schools, those of the same name merged into the kept district's. */
export const districtMergePreviewSchema = z.object({
  from: z.object({ id: z.number().int(), name: z.string() }),
  into: z.object({ id: z.number().int(), name: z.string() }),
  /** Schools that move as they are. */
  schools_moved: z.array(z.string()),
  /** Schools with the same name (nameKey) in both districts: each merged into the kept district's. */
  schools_joined: z.array(schoolMergePreviewSchema),
  ...intFields('contestants', 'school_admins', 'class_teachers'),
  results_computed: z.boolean(),
  refusal: z.string().nullable(),
});
export type DistrictMergePreview = z.infer<typeof districtMergePreviewSchema>;

export const adminSchoolSchema = z.object({
  id: z.number().int(),
  district_id: z.number().int(),
  district_name: z.string(),
  name: z.string(),
  address: z.string(),
  pupil_count: z.number().int(),
  contestants: z.number().int(),
  /** The season from which the school is closed (the catalogue's move, decision 038), or null while open. */
  closed_from: z.string().nullable(),
});
export type AdminSchool = z.infer<typeof adminSchoolSchema>;

export const adminClassGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  grades: z.string(),
  ...intFields('position', 'class_rooms', 'books', 'contestants'),
});
export type AdminClassGroup = z.infer<typeof adminClassGroupSchema>;

export const adminClassRoomSchema = z.object({
  id: z.number().int(),
  class_group_id: z.number().int(),
  class_group_name: z.string(),
  name: z.string(),
  position: z.number().int(),
  contestants: z.number().int(),
});
export type AdminClassRoom = z.infer<typeof adminClassRoomSchema>;

export const classRoomUsageSchema = z.object({ contestants: z.number().int(), class_teachers: z.number().int() });
export type ClassRoomUsage = z.infer<typeof classRoomUsageSchema>;

export const adminClassTeacherSchema = z.object({
  school_id: z.number().int(),
  school_name: z.string(),
  district_id: z.number().int(),
  district_name: z.string(),
  class_name: z.string(),
  teacher_name: z.string(),
});
export type AdminClassTeacher = z.infer<typeof adminClassTeacherSchema>;

export const dataResponse = <T extends z.ZodType>(item: T) => z.object({ success: z.literal(true), data: item });

// Its messages live with every other in shared/messages/ (admin.ts); exported here too for the screens that import them with the schemas.
export { catalogMessages };
export { catalogLimits };
