// GET /api/site: the footer texts and the contest dates, fetched once per page load and shared
// by the footer and the rules page.
import { api } from './api-client';
import { useData } from './use-data';

export type { SiteContest, SiteInfo } from '../../shared/schemas/site';
import type { SiteInfo } from '../../shared/schemas/site';

let pending: Promise<SiteInfo> | undefined;

export function loadSite(): Promise<SiteInfo> {
  pending ??= api.get<{ data: SiteInfo }>('/site').then(
    (response) => response.data,
    (error: unknown) => {
      pending = undefined; // the next screen that asks tries again
      throw error;
    },
  );
  return pending;
}

/** The site info, or null while it loads or when it could not be loaded (logged, not shown). */
export function useSite(): SiteInfo | null {
  return useData('site', loadSite, { warn: 'Không tải được thông tin trang' }).data ?? null;
}
