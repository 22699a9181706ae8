// The education offices' viewers in the back office (issue 41, decision 039): created one by one
// or from a spreadsheet like the school administrators, with a one-time set-password link sent by
// SMS after the commit. A province viewer has no unit; a unit viewer one or more (viewer_units,
// 0051). Locking, unlocking and reset links are the accounts' own (service.ts), for any role.
import { templateColumns, type ImportCounts, type ImportUpdate } from '../../../../shared/schemas/admin';
import { adminAccountMessages, roleLabels, type PasswordLink } from '../../../../shared/schemas/admin-accounts';
import { VIEWER_UNITS_MAX, viewerMessages, viewerRoleOfKind, viewerRoles, type CreateViewerInput, type ViewerRole } from '../../../../shared/schemas/viewers';
import { compareVietnamese, foldText } from '../../../../shared/vietnamese';
import { appError } from '../../../lib/errors';
import { isUniqueViolation } from '../../../db/errors';
import { createResetLink, createResetLinks } from '../../auth';
import { recordAudit, type Actor } from '../kit/audit';
import { tableFile } from '../kit/file-reader';
import { runImport } from '../kit/imports';
import { breather, chunks } from '../kit/sheets';
import type { Upload } from '../kit/uploads';
import { checkPhoneAndName, linkAnswer, sendLinks, smsTexts, validName, type AccountsDeps } from './service';
import * as repo from './repo';

const isViewerRole = (role: string): role is ViewerRole => (viewerRoles as readonly string[]).includes(role);
const names = (units: { name: string }[]) => units.map((u) => u.name).sort(compareVietnamese);

/** POST /viewers: one viewer (district_ids checked against the catalogue), its link by SMS. */
export async function createViewer(deps: AccountsDeps, actor: Actor, input: CreateViewerInput & { district_ids: number[] }) {
  const { db, clock, config } = deps;
  const role = viewerRoleOfKind[input.kind];
  const districtIds = [...new Set(input.district_ids)];
  let created: { id: number; url: string; expiresAt: Date };
  try {
    created = await db.transaction().execute(async (trx) => {
      const units = await repo.findDistricts(trx, districtIds);
      if (units.length !== districtIds.length) throw appError('input_refused', viewerMessages.unitUnknown, { district_ids: viewerMessages.unitUnknown });
      const [other] = await repo.findUsersByPhones(trx, [input.phone]);
      if (other) throw appError('phone_taken', viewerMessages.phoneTakenBy(roleLabels[other.role]), { phone: viewerMessages.phoneTakenBy(roleLabels[other.role]) });
      const [user] = await repo.insertViewers(trx, [{ phone: input.phone, name: input.name, role }], clock.now());
      if (!user) throw appError('phone_taken', adminAccountMessages.phoneTaken, { phone: adminAccountMessages.phoneTaken });
      await repo.setViewerUnits(trx, [{ userId: user.id, districtIds }]);
      const link = await createResetLink(trx, { clock, publicUrl: config.publicUrl }, user.id);
      const scope = viewerMessages.scopeOf(names(units));
      await recordAudit(trx, actor, {
        kind: 'account.create',
        summary: viewerMessages.audit.created(input.phone, input.name, scope),
        details: { after: { phone: input.phone, name: input.name, role, units: names(units) } },
      });
      return { id: user.id, ...link };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('phone_taken', adminAccountMessages.phoneTaken, { phone: adminAccountMessages.phoneTaken });
    throw error;
  }
  const failed = await sendLinks(deps, [{ phone: input.phone, url: created.url }], smsTexts.newViewer);
  return linkAnswer(created.id, input.phone, created.url, created.expiresAt, failed.length === 0);
}

// Import ---------------------------------------------------------------------------------------

const [PHONE, NAME, UNITS] = templateColumns.viewers as [string, string, string];

interface ViewerRow {
  row: number;
  phone: string;
  name: string;
  role: ViewerRole;
  districtIds: number[];
}

const listChanged = () => appError('phone_taken', adminAccountMessages.listChanged);
const SLICE = 500;
const sameUnits = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * POST /viewers/import: each row's phone, name and units ("Đơn vị": names separated by ";",
 * matched with accents and case aside; empty: the whole province). A viewer already there is
 * updated when its name or scope differ; a phone of another role is a row error. One transaction.
 */
export async function importViewers(deps: AccountsDeps, actor: Actor, upload: Upload) {
  const { clock, config } = deps;
  const answer = await runImport(deps, actor, upload, {
    read: tableFile('viewers'),
    raced: listChanged,
    async preview(db, table, { problems }) {
      const districts = await repo.listDistricts(db);
      const districtIds = new Map(districts.map((d) => [foldText(d.name), d.id]));
      const districtNames = new Map(districts.map((d) => [d.id, d.name]));
      const scopeOf = (ids: readonly number[]) => viewerMessages.scopeOf(ids.map((id) => districtNames.get(id) ?? '').sort(compareVietnamese));

      const rows: ViewerRow[] = [];
      const phoneKeys: { row: number; key: string }[] = [];
      const breathe = breather();
      for (const { row, cells } of table) {
        await breathe();
        const [phoneCell, name, unitsCell] = cells as [string, string, string];
        const phone = checkPhoneAndName(problems, row, phoneCell, name, { phone: PHONE, name: NAME });
        if (phone) phoneKeys.push({ row, key: phone });
        const unitNames = (unitsCell ?? '').split(';').map((part) => part.trim()).filter(Boolean);
        const ids = new Set<number>();
        let unitsOk = true;
        for (const unitName of unitNames) {
          const id = districtIds.get(foldText(unitName));
          if (id === undefined) {
            problems.add(row, UNITS, viewerMessages.unitNotInCatalogue(unitName));
            unitsOk = false;
          } else ids.add(id);
        }
        if (ids.size > VIEWER_UNITS_MAX) {
          problems.add(row, UNITS, viewerMessages.unitsTooManyInRow(VIEWER_UNITS_MAX));
          unitsOk = false;
        }
        if (phone && validName(name) && unitsOk) {
          const sorted = [...ids].sort((a, b) => a - b);
          rows.push({ row, phone, name, role: sorted.length === 0 ? 'province_viewer' : 'unit_viewer', districtIds: sorted });
        }
      }
      await problems.duplicates(phoneKeys, PHONE);

      const existing = new Map((await repo.findUsersByPhones(db, rows.map((r) => r.phone))).map((user) => [user.phone, user]));
      const unitsNow = await repo.viewerUnitsOf(db, [...existing.values()].filter((u) => u.role === 'unit_viewer').map((u) => u.id));
      const toCreate: ViewerRow[] = [];
      const toUpdate: (ViewerRow & { id: number })[] = [];
      const changes: ImportUpdate[] = [];
      let unchanged = 0;
      for (const row of rows) {
        await breathe();
        const user = existing.get(row.phone);
        if (!user) toCreate.push(row);
        else if (!isViewerRole(user.role)) problems.add(row.row, PHONE, viewerMessages.phoneOfOtherRole(roleLabels[user.role]));
        else {
          const before = unitsNow.get(user.id) ?? [];
          const sameName = user.name.toLocaleLowerCase('vi') === row.name.toLocaleLowerCase('vi');
          if (sameName && user.role === row.role && sameUnits(before, row.districtIds)) {
            unchanged += 1;
            continue;
          }
          toUpdate.push({ ...row, name: sameName ? user.name : row.name, id: user.id });
          const fields: ImportUpdate['changes'] = [];
          if (!sameName) fields.push({ field: NAME, before: user.name, after: row.name });
          if (user.role !== row.role || !sameUnits(before, row.districtIds)) fields.push({ field: UNITS, before: scopeOf(before), after: scopeOf(row.districtIds) });
          changes.push({ row: row.row, key: row.phone, changes: fields });
        }
      }
      const counts: ImportCounts = { created: toCreate.length, updated: toUpdate.length, unchanged };
      return {
        counts,
        answer: { links: [] as PasswordLink[] },
        updates: changes,
        async store(trx) {
          const now = clock.now();
          const links: PasswordLink[] = [];
          const created: string[] = [];
          for (const part of chunks(toCreate, SLICE)) {
            const made = await repo.insertViewers(trx, part.map((r) => ({ phone: r.phone, name: r.name, role: r.role })), now);
            if (made.length !== part.length) throw listChanged();
            const idOf = new Map(made.map((user) => [user.phone, user.id]));
            await repo.setViewerUnits(trx, part.map((r) => ({ userId: idOf.get(r.phone)!, districtIds: r.districtIds })));
            const phoneOf = new Map(made.map((user) => [user.id, user.phone]));
            const issued = await createResetLinks(trx, { clock, publicUrl: config.publicUrl }, made.map((user) => user.id));
            for (const link of issued) links.push({ phone: phoneOf.get(link.userId)!, url: link.url });
            for (const user of made) created.push(user.phone);
          }
          for (const part of chunks(toUpdate, SLICE)) {
            await repo.updateViewers(trx, part.map((row) => ({ id: row.id, name: row.name, role: row.role })));
            await repo.setViewerUnits(trx, part.map((row) => ({ userId: row.id, districtIds: row.districtIds })));
          }
          return {
            answer: { links },
            audit: {
              kind: 'viewers.import',
              summary: viewerMessages.audit.imported(upload.fileName, counts.created, counts.updated, counts.unchanged),
              details: { file: upload.fileName, counts, created, updated: toUpdate.map((row) => row.phone) },
            },
          };
        },
      };
    },
  });
  if ('errors_file' in answer) return answer;
  if (answer.dry_run) return { ...answer, sms_failed: [] };
  const smsFailed = await sendLinks(deps, answer.links, smsTexts.newViewer);
  return { ...answer, sms_failed: smsFailed, ...(smsFailed.length > 0 ? { message: adminAccountMessages.smsFailed } : {}) };
}
