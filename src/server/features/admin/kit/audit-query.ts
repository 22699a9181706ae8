// The audit list's filters as the service reads them: dates turned into instants in Vietnam's time.
import { z } from 'zod';
import { auditQuerySchema } from '../../../../shared/schemas/admin';

/** A date (yyyy-mm-dd, a day in Asia/Ho_Chi_Minh) or a date-time; undefined when empty. */
function instant(value: string | undefined, endOfDay: boolean): Date | undefined | null {
  if (!value) return undefined;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const at = day ? new Date(`${value}T00:00:00+07:00`) : new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return day && endOfDay ? new Date(at.getTime() + 86_400_000) : at;
}

export const auditFiltersSchema = auditQuerySchema.transform((query, ctx) => {
  const from = instant(query.from, false);
  const to = instant(query.to, true);
  if (from === null) ctx.addIssue({ code: 'custom', path: ['from'], message: 'Ngày bắt đầu không hợp lệ (dd/mm/yyyy).' });
  if (to === null) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Ngày kết thúc không hợp lệ (dd/mm/yyyy).' });
  return { ...query, from: from ?? undefined, to: to ?? undefined };
});
export type AuditQuery = z.output<typeof auditFiltersSchema>;
