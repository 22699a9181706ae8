// GET /api/site: the footer texts, the contest dates and the season's unit level, fetched once per
// page load and shared by the footer, the rules page and every screen that names the unit.
import { api } from './api-client';
import { useData } from './use-data';
import { relabelUnit, unitLevelLabels, type UnitLabels } from '../../shared/unit-level';

export type { SiteContest, SiteInfo } from '../../shared/schemas/site';
import type { SiteInfo } from '../../shared/schemas/site';

let pending: Promise<SiteInfo> | undefined;
/** Set by forgetSite: the next load asks the server, past the 10 s the browser may keep the answer. */
let stale = false;

export function loadSite(): Promise<SiteInfo> {
  pending ??= api.get<{ data: SiteInfo }>('/site', stale ? { cache: 'no-cache' } : {}).then(
    (response) => {
      stale = false;
      return response.data;
    },
    (error: unknown) => {
      pending = undefined; // the next screen that asks tries again
      throw error;
    },
  );
  return pending;
}

/** After a change of the settings /api/site answers (the organiser's save): the next screen loads them again. */
export function forgetSite(): void {
  pending = undefined;
  stale = true;
}

/** The site info, or null while it loads or when it could not be loaded (logged, not shown). */
export function useSite(): SiteInfo | null {
  return useData('site', loadSite, { warn: 'Không tải được thông tin trang' }).data ?? null;
}

/**
 * The texts of the level under the province the current season names (shared/unit-level.ts):
 * the specification's "Huyện" until /api/site answers, and whenever it cannot.
 */
export function useUnitLabels(): UnitLabels {
  return unitLevelLabels(useSite()?.contest?.unit_level);
}

/** A text of ours written for districts ("quận/huyện"), said as the current season names the unit. */
export function useUnitWords(): (text: string) => string {
  const level = useSite()?.contest?.unit_level;
  return (text) => relabelUnit(text, level);
}
