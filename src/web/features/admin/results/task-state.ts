import type { ResultTaskView } from '../../../../shared/schemas/admin-results';

/**
 * The computation task to show when the page's overview brings one: the overview's, unless the
 * page already knows a later task (ids grow). An overview asked for before "Tính lại kết quả" can
 * answer after it; taking its finished task would hide the new one and stop the progress.
 */
export function laterTask(shown: ResultTaskView | null, fromOverview: ResultTaskView | null): ResultTaskView | null {
  if (!fromOverview) return shown;
  if (shown && shown.id > fromOverview.id) return shown;
  return fromOverview;
}
