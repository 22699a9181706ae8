// The audit log: every organiser action, written in the same transaction as the change it
// records (so an entry exists exactly when the change does). The table refuses updates and
// deletes (0009_back_office.sql).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { AuditQuery } from './audit-query';

// Writing an entry: core/audit.ts (the education offices' viewers write theirs too, decision 039).
export { recordAudit, type Actor, type AuditEntryInput } from '../../../core/audit';

/** Entries, newest first, filtered by kind (prefix: 'school' matches 'school.update'), actor (phone or name), date range and text. */
export async function listAudit(db: Db, query: AuditQuery) {
  let q = db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id');
  const like = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;
  if (query.kind) q = q.where((eb) => eb.or([eb('audit_log.kind', '=', query.kind!), eb('audit_log.kind', 'like', `${query.kind!.replace(/[%_\\]/g, '\\$&')}.%`)]));
  if (query.actor) q = q.where((eb) => eb.or([eb('audit_log.actor_phone', 'like', like(query.actor!)), eb('users.name', 'ilike', like(query.actor!.normalize('NFC')))]));
  if (query.from) q = q.where('audit_log.at', '>=', query.from);
  if (query.to) q = q.where('audit_log.at', '<', query.to);
  if (query.q) q = q.where('audit_log.summary', 'ilike', like(query.q));
  const [items, total] = await Promise.all([
    q
      .select(['audit_log.id', 'audit_log.at', 'audit_log.actor_phone', sql<string>`coalesce(users.name, '')`.as('actor_name'), 'audit_log.kind', 'audit_log.summary', 'audit_log.details'])
      .orderBy('audit_log.at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: items.map((row) => ({ ...row, id: String(row.id), at: row.at.toISOString() })),
    total: Number(total.n),
    page: query.page,
    per_page: query.per_page,
  };
}
