// The audit log's one writer (0009_back_office.sql: the table refuses updates and deletes): the
// back office's changes, each in the transaction of the change it records (features/admin/kit),
// and the education offices' viewers' views (features/viewers, decision 039).
import type { Db } from '../db/client';
import type { AuthUser } from './guard';
import { markResultsChanged } from './ranking/changes';

export interface AuditEntryInput {
  /** dotted, lower case: 'school.update', 'questions.import', 'account.lock' */
  kind: string;
  /** One readable Vietnamese line: what was done to what ("Sửa trường Tiểu học Kim Đồng"). */
  summary: string;
  /** {before, after} for edits; {file, counts} for imports; anything else worth keeping. */
  details?: Record<string, unknown>;
  /**
   * The change can move a prize of computed results (a school's size, a merge, a regrade...): the
   * current contest's results are marked out of date by this entry (core/ranking/changes.ts).
   */
  movesResults?: boolean;
}

/** Who acts in the back office, as the audit log records them. */
export type Actor = Pick<AuthUser, 'id' | 'phone'>;

export async function recordAudit(db: Db, actor: Actor, entry: AuditEntryInput): Promise<void> {
  const { id } = await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_phone: actor.phone,
      kind: entry.kind,
      summary: entry.summary.slice(0, 1000),
      details: JSON.stringify(entry.details ?? {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (entry.movesResults) await markResultsChanged(db, id);
}

