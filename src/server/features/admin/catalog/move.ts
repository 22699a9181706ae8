// Moving the catalogue to a new map between seasons (issue 36, decision 038): the organiser imports
// the new season's whole list of schools (each with its new unit and name, and the school of the
// catalogue it continues) through the one import flow. The preview says what would change (units
// created, schools moved, renamed, merged, closed; the schools matched by a name written
// otherwise, to confirm); the commit does it in one transaction with one audit entry. A school
// keeps its row, so its pupils, accounts, class teachers, certificates, prizes and audit history
// follow it; earlier seasons keep their names through their snapshots (db/school-snapshots.ts).
import { sql } from 'kysely';
import { matchKey, moveMessages as mm, needsConfirmation } from '../../../../shared/catalogue-move';
import { catalogImportMessages as im, catalogMessages } from '../../../../shared/messages/admin';
import { importMessages, MAX_LISTED_CHANGES, templateColumns, type ImportUpdate } from '../../../../shared/schemas/admin';
import { catalogLimits } from '../../../../shared/schemas/admin-catalog';
import type { CatalogueMoveAnswer } from '../../../../shared/schemas/catalogue-move';
import { nameKey } from '../../../../shared/vietnamese';
import { STALE_MS } from '../../../core/task-runner';
import type { Db } from '../../../db/client';
import { snapshotSchools } from '../../../db/school-snapshots';
import { requireCurrentContest } from '../../../core/contest';
import { appError } from '../../../lib/errors';
import { buildXlsx } from '../../../lib/xlsx-writer';
import type { Services } from '../../../services';
import { recheckCertificates } from '../../certificates';
import type { Actor } from '../kit/audit';
import { tableFile } from '../kit/file-reader';
import { runImport } from '../kit/imports';
import { breather, type ImportProblems, type SheetRow } from '../kit/sheets';
import type { Upload } from '../kit/uploads';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'config' | 'clock'>;
export const FORMER_PROVINCE_MAX = 120;

interface Unit {
  id: number;
  name: string;
  former_province: string;
}
interface School {
  id: number;
  district_id: number;
  name: string;
  closed_from_contest_id: number | null;
}

/** One row of the file, checked: the school it continues (if any), its new unit and name. */
interface Line {
  row: number;
  school?: School;
  /** Matched by a name written otherwise ("Hoa Binh" for "Hòa Bình"): the organiser confirms it. */
  confirm?: { typed: string };
  unit: string;
  name: string;
  formerProvince: string;
}

/** The move's answer beside the kit's counts: what each school becomes, listed (first MAX_LISTED_CHANGES). */
type MoveAnswer = CatalogueMoveAnswer;

const SPLIT = '\u0000';
const unitKeyOf = (name: string) => nameKey(name);
const placeKey = (unitKey: string, name: string) => `${unitKey}${SPLIT}${nameKey(name)}`;

/** The rows confirmed by the organiser: `confirm_rows` = "3,7,12" (the preview's rows). */
export function confirmedRows(fields: Record<string, string | undefined>): Set<number> {
  return new Set(
    (fields.confirm_rows ?? '')
      .split(/[\s,;]+/u)
      .filter((part) => /^\d{1,7}$/u.test(part))
      .map(Number),
  );
}

/** Reads each row and finds the school it continues; every problem is added, nothing is read twice. */
async function checkRows(rows: SheetRow[], problems: ImportProblems, units: Unit[], schools: School[]): Promise<Line[]> {
  const [colCode, colOldName, , colUnit, colName, colProvince] = templateColumns['catalog-move'] as [string, string, string, string, string, string];
  const unitById = new Map(units.map((u) => [u.id, u]));
  const open = schools.filter((s) => s.closed_from_contest_id === null);
  const openById = new Map(open.map((s) => [s.id, s]));
  const openByName = new Map<string, School[]>();
  for (const school of open) openByName.set(matchKey(school.name), [...(openByName.get(matchKey(school.name)) ?? []), school]);
  // The open schools by their place (unit and name): a row whose old school is gone but whose new
  // place holds an open school is that school, already moved (the same file imported twice).
  const openAt = new Set(open.map((s) => placeKey(nameKey(unitById.get(s.district_id)?.name ?? ''), s.name)));
  const lines: Line[] = [];
  const rowOfSchool = new Map<number, number>();
  const breathe = breather();
  for (const { row, cells } of rows) {
    await breathe();
    const [code = '', oldName = '', oldUnit = '', unit = '', name = '', formerProvince = ''] = cells;
    let ok = true;
    const fail = (column: string, message: string) => {
      problems.add(row, column, message);
      ok = false;
    };
    if (!unit) fail(colUnit, importMessages.required);
    else if (unit.length > catalogLimits.districtName) fail(colUnit, im.tooLong(catalogLimits.districtName));
    if (!name) fail(colName, importMessages.required);
    else if (name.length > catalogLimits.schoolName) fail(colName, im.tooLong(catalogLimits.schoolName));
    if (formerProvince.length > FORMER_PROVINCE_MAX) fail(colProvince, im.tooLong(FORMER_PROVINCE_MAX));

    let school: School | undefined;
    let confirm: Line['confirm'];
    if (code) {
      school = /^\d{1,9}$/u.test(code) ? openById.get(Number(code)) : undefined;
      if (!school) fail(colCode, mm.codeUnknown(code));
    } else if (oldName) {
      let found = openByName.get(matchKey(oldName)) ?? [];
      if (oldUnit) found = found.filter((s) => matchKey(unitById.get(s.district_id)?.name ?? '') === matchKey(oldUnit));
      if (found.length === 0) {
        if (!(unit && name && openAt.has(placeKey(nameKey(unit), name)))) fail(colOldName, mm.oldSchoolNotFound(oldName));
      }
      else if (found.length > 1) fail(colOldName, mm.oldSchoolAmbiguous(oldName, found.length));
      else {
        school = found[0]!;
        const unitTyped = oldUnit && needsConfirmation(oldUnit, unitById.get(school.district_id)?.name ?? '');
        if (needsConfirmation(oldName, school.name) || unitTyped) confirm = { typed: oldUnit ? `${oldName} (${oldUnit})` : oldName };
      }
    }
    if (school) {
      const first = rowOfSchool.get(school.id);
      if (first !== undefined) fail(code ? colCode : colOldName, mm.schoolTwice(school.name, first));
      else rowOfSchool.set(school.id, row);
    }
    if (ok) lines.push({ row, school, confirm, unit, name, formerProvince });
  }
  return lines;
}

/** The schools of one new place (unit and name): the one kept, the others merged into it. */
interface Place {
  row: number;
  unitKey: string;
  unit: string;
  name: string;
  keep?: School;
  merged: { school: School; row: number }[];
}

/** Current-season pupils of each school (what a merge moves, what a closure leaves to re-enrol). */
async function seasonPupils(db: Db, contestId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('contestants')
    .select(['school_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('contest_id', '=', contestId)
    .groupBy('school_id')
    .execute();
  return new Map(rows.map((row) => [row.school_id, Number(row.n)]));
}

/** POST /api/admin/catalog/move: the new season's list of schools on the new map (dry run, then commit). */
export function importCatalogueMove(deps: Deps, actor: Actor, upload: Upload) {
  const [, , , , colName, colProvince] = templateColumns['catalog-move'] as [string, string, string, string, string, string];
  const confirmed = confirmedRows(upload.fields);
  return runImport(deps, actor, upload, {
    read: tableFile('catalog-move'),
    raced: () => appError('name_taken', catalogMessages.changedDuringImport),
    async preview(db, rows, { dryRun, problems }) {
      const contest = await requireCurrentContest(db);
      const units: Unit[] = await db.selectFrom('districts').select(['id', 'name', 'former_province']).orderBy('id').execute();
      const schools: School[] = await db.selectFrom('schools').select(['id', 'district_id', 'name', 'closed_from_contest_id']).orderBy('id').execute();
      const lines = await checkRows(rows, problems, units, schools);
      problems.throwIfAny();

      // Units: one by name key; a new one keeps the file's first spelling. A unit has one former province.
      const unitByKey = new Map(units.map((u) => [unitKeyOf(u.name), u]));
      const unitById = new Map(units.map((u) => [u.id, u]));
      const newUnits = new Map<string, { name: string; formerProvince: string }>();
      const provinceOf = new Map<string, { value: string; row: number }>();
      for (const line of lines) {
        const key = unitKeyOf(line.unit);
        if (!unitByKey.has(key) && !newUnits.has(key)) newUnits.set(key, { name: line.unit, formerProvince: '' });
        if (!line.formerProvince) continue;
        const first = provinceOf.get(key);
        if (!first) provinceOf.set(key, { value: line.formerProvince, row: line.row });
        else if (nameKey(first.value) !== nameKey(line.formerProvince)) problems.add(line.row, colProvince, mm.formerProvinceTwice(line.unit, first.value));
      }
      const unitName = (key: string) => unitByKey.get(key)?.name ?? newUnits.get(key)!.name;

      // Places: the rows of one new (unit, name) are one school; the one already there is kept.
      const schoolAt = new Map(schools.map((s) => [placeKey(unitKeyOf(unitById.get(s.district_id)?.name ?? ''), s.name), s]));
      const named = new Set(lines.flatMap((l) => (l.school ? [l.school.id] : [])));
      const places = new Map<string, Place>();
      for (const line of lines) {
        const unitKey = unitKeyOf(line.unit);
        const key = placeKey(unitKey, line.name);
        const place = places.get(key) ?? { row: line.row, unitKey, unit: line.unit, name: line.name, merged: [] };
        places.set(key, place);
        if (line.school) place.merged.push({ school: line.school, row: line.row });
      }
      for (const [key, place] of places) {
        const there = schoolAt.get(key);
        if (there && there.closed_from_contest_id !== null && !place.merged.some((m) => m.school.id === there.id)) {
          problems.add(place.row, colName, mm.closedNameTaken(place.name));
          continue;
        }
        // A school of the catalogue at this place that no row names continues here (a row without an old school).
        if (there && !named.has(there.id)) place.merged.unshift({ school: there, row: place.row });
        const kept = place.merged.find((m) => m.school.id === there?.id) ?? place.merged[0];
        if (kept) {
          place.keep = kept.school;
          place.merged = place.merged.filter((m) => m !== kept);
        }
      }
      problems.throwIfAny();

      const unconfirmed = lines.filter((l) => l.confirm && !confirmed.has(l.row));
      if (!dryRun && unconfirmed.length > 0) {
        const listed = unconfirmed
          .slice(0, 10)
          .map((l) => `dòng ${l.row}: "${l.confirm!.typed}" → ${l.school!.name}`)
          .join('; ');
        throw appError('names_unconfirmed', mm.namesUnconfirmed(unconfirmed.length, listed), undefined, { rows: unconfirmed.map((l) => l.row) });
      }

      const pupils = await seasonPupils(db, contest.id);
      const answer: MoveAnswer = {
        units_created: newUnits.size,
        moved: 0,
        renamed: 0,
        merged: 0,
        closed: 0,
        to_confirm: lines.filter((l) => l.confirm).length,
        moves: [],
        renames: [],
        merges: [],
        closures: [],
        confirmations: lines
          .filter((l) => l.confirm)
          .map((l) => ({ row: l.row, typed: l.confirm!.typed, school: l.school!.name, unit: unitById.get(l.school!.district_id)?.name ?? '' })),
        former_provinces: [],
      };
      const updates: ImportUpdate[] = [];
      const creates: { unitKey: string; name: string }[] = [];
      const changes: { id: number; unitKey: string; name: string }[] = [];
      const merges: { from: School; intoId: number }[] = [];
      let unchanged = 0;
      for (const place of places.values()) {
        if (!place.keep) {
          creates.push({ unitKey: place.unitKey, name: place.name });
          continue;
        }
        const keep = place.keep;
        const before = unitById.get(keep.district_id)?.name ?? '';
        const moves = unitKeyOf(before) !== place.unitKey;
        const renames = nameKey(keep.name) !== nameKey(place.name);
        // Another spelling of the same name keeps the catalogue's (decision 017).
        const finalName = renames ? place.name : keep.name;
        if (moves) answer.moves.push({ row: place.row, school: finalName, from: before, to: unitName(place.unitKey) });
        if (renames) answer.renames.push({ row: place.row, from: keep.name, to: finalName, unit: unitName(place.unitKey) });
        if (moves || renames) {
          changes.push({ id: keep.id, unitKey: place.unitKey, name: finalName });
          updates.push({
            row: place.row,
            key: `${before} / ${keep.name}`,
            changes: [
              ...(moves ? [{ field: 'Đơn vị', before, after: unitName(place.unitKey) }] : []),
              ...(renames ? [{ field: colName, before: keep.name, after: finalName }] : []),
            ],
          });
        } else if (place.merged.length === 0) unchanged += 1;
        for (const { school, row } of place.merged) {
          merges.push({ from: school, intoId: keep.id });
          answer.merges.push({ row, from: school.name, from_unit: unitById.get(school.district_id)?.name ?? '', into: finalName, unit: unitName(place.unitKey), contestants: pupils.get(school.id) ?? 0 });
        }
      }
      const continuing = new Set([...places.values()].flatMap((p) => [...(p.keep ? [p.keep.id] : []), ...p.merged.map((m) => m.school.id)]));
      const closures = schools.filter((s) => s.closed_from_contest_id === null && !continuing.has(s.id));
      answer.closures = closures.map((s) => ({ school: s.name, unit: unitById.get(s.district_id)?.name ?? '', contestants: pupils.get(s.id) ?? 0 }));
      const provinceChanges: { id?: number; unitKey: string; value: string }[] = [];
      for (const [key, { value }] of provinceOf) {
        const unit = unitByKey.get(key);
        if (unit && unit.former_province === value) continue;
        provinceChanges.push({ id: unit?.id, unitKey: key, value });
        if (unit) answer.former_provinces.push({ unit: unit.name, before: unit.former_province, after: value });
        else newUnits.get(key)!.formerProvince = value;
      }
      answer.moved = answer.moves.length;
      answer.renamed = answer.renames.length;
      answer.merged = answer.merges.length;
      answer.closed = closures.length;
      for (const list of ['moves', 'renames', 'merges', 'closures', 'confirmations', 'former_provinces'] as const) {
        (answer[list] as unknown[]) = answer[list].slice(0, MAX_LISTED_CHANGES);
      }
      const counts = { created: creates.length, updated: changes.length, unchanged };

      return {
        counts,
        answer,
        updates,
        creations: [
          ...[...newUnits.values()].map((u) => ({ kind: 'district' as const, name: u.formerProvince ? `${u.name} (${colProvince}: ${u.formerProvince})` : u.name })),
          ...creates.map((c) => ({ kind: 'school' as const, name: `${c.name} (${unitName(c.unitKey)})` })),
        ],
        async store(trx) {
          const results = await repo.resultsState(trx, new Date(deps.clock.now().getTime() - STALE_MS));
          if (results.computing) throw appError('merge_refused', mm.whileComputing);
          // Earlier seasons keep the catalogue as it is before the move (those the switch has not kept already).
          await snapshotSchools(trx);
          const unitIds = new Map([...unitByKey].map(([key, unit]) => [key, unit.id]));
          if (newUnits.size > 0) {
            const inserted = await trx
              .insertInto('districts')
              .values([...newUnits.values()].map((u) => ({ name: u.name, former_province: u.formerProvince })))
              .returning(['id', 'name'])
              .execute();
            for (const unit of inserted) unitIds.set(unitKeyOf(unit.name), unit.id);
          }
          for (const change of provinceChanges.filter((c) => c.id !== undefined)) {
            await trx.updateTable('districts').set({ former_province: change.value }).where('id', '=', change.id!).execute();
          }
          // Moves and renames in two steps, so that two schools trading places never meet the
          // unique (unit, name) halfway; a school's new unit carries its pupils' (0027's cascade).
          if (changes.length > 0) {
            await trx
              .updateTable('schools')
              .set({ name: sql<string>`chr(1) || id::text` })
              .where('id', 'in', changes.map((c) => c.id))
              .execute();
            for (const change of changes) {
              await trx.updateTable('schools').set({ name: change.name, district_id: unitIds.get(change.unitKey)! }).where('id', '=', change.id).execute();
            }
          }
          if (creates.length > 0) {
            await trx
              .insertInto('schools')
              .values(creates.map((c) => ({ district_id: unitIds.get(c.unitKey)!, name: c.name })))
              .execute();
          }
          // A merge is decision 023's, for the new season: its pupils of this season, its school
          // administrators and its class teachers go to the kept school; the merged school is closed
          // (not deleted), so that earlier seasons' pupils, results and certificates keep it.
          for (const { from, intoId } of merges) {
            const into = await trx.selectFrom('schools').select(['id', 'district_id']).where('id', '=', intoId).executeTakeFirstOrThrow();
            await trx.updateTable('contestants').set({ school_id: into.id, district_id: into.district_id }).where('school_id', '=', from.id).where('contest_id', '=', contest.id).execute();
            await trx.updateTable('users').set({ school_id: into.id }).where('school_id', '=', from.id).execute();
            await sql`
              INSERT INTO class_teachers (school_id, class_name, teacher_name)
              SELECT ${into.id}, class_name, teacher_name FROM class_teachers WHERE school_id = ${from.id}
              ON CONFLICT (school_id, class_name) DO NOTHING`.execute(trx);
            await trx.deleteFrom('class_teachers').where('school_id', '=', from.id).execute();
            await trx.updateTable('schools').set({ closed_from_contest_id: contest.id, merged_into_id: into.id }).where('id', '=', from.id).execute();
          }
          if (closures.length > 0) {
            await trx
              .updateTable('schools')
              .set({ closed_from_contest_id: contest.id })
              .where('id', 'in', closures.map((s) => s.id))
              .execute();
          }
          // The current season's certificates print school names: drawn again (earlier seasons read their snapshots).
          if (changes.length > 0 || merges.length > 0) await recheckCertificates(trx);
          const what = `đơn vị mới ${answer.units_created}, trường mới ${counts.created}, chuyển đơn vị ${answer.moved}, đổi tên ${answer.renamed}, sáp nhập ${answer.merged}, đóng ${answer.closed}, giữ nguyên ${unchanged}`;
          return {
            audit: {
              kind: 'catalog.move',
              summary: mm.audit(upload.fileName, what),
              details: {
                file: upload.fileName,
                season: { id: contest.id, name: contest.name },
                counts: { ...counts, rows: rows.length, units_created: answer.units_created, moved: answer.moved, renamed: answer.renamed, merged: answer.merged, closed: answer.closed },
                moves: answer.moves,
                renames: answer.renames,
                merges: answer.merges,
                closures: answer.closures,
                confirmed: answer.confirmations,
                former_provinces: answer.former_provinces,
              },
              movesResults: true,
            },
          };
        },
      };
    },
  });
}


/**
 * GET /api/admin/catalog/move.xlsx: the catalogue's open schools in the move's template, each row
 * naming its school by code, old name and unit, with the new columns filled as today: the organiser
 * changes what the new map changes, adds the new schools, deletes the rows of schools that close.
 */
export async function currentCatalogueXlsx(db: Db): Promise<Buffer> {
  const schools = await db
    .selectFrom('schools')
    .innerJoin('districts', 'districts.id', 'schools.district_id')
    .select(['schools.id', 'schools.name', 'districts.name as unit', 'districts.former_province'])
    .where('schools.closed_from_contest_id', 'is', null)
    .orderBy('districts.name')
    .orderBy('schools.name')
    .execute();
  const titles = templateColumns['catalog-move'];
  return buildXlsx(async (xlsx) => {
    xlsx.sheet({ name: 'Mẫu chuyển danh mục', headings: [...titles], kinds: titles.map(() => 'text' as const), widths: [12, 40, 28, 28, 40, 20] });
    await xlsx.rows(schools.map((s) => [String(s.id), s.name, s.unit, s.unit, s.name, s.former_province]));
  });
}
