// GET /api/site: the footer texts and the contest dates, fetched once per page load and shared
// by the footer and the rules page.
import { useEffect, useState } from 'react';
import { api } from '../lib/api-client';

export interface Sponsor {
  name: string;
  logo: string;
  url: string;
}

export interface SiteContest {
  name: string;
  /** ISO date-times (UTC); shown in Asia/Ho_Chi_Minh with src/shared/format.ts. */
  exam_starts_at: string;
  exam_ends_at: string;
  results_at: string;
  exam_duration_seconds: number;
}

export interface SiteInfo {
  siteName: string;
  organiserName: string;
  organiserAddress: string;
  hotline: string;
  contactEmail: string;
  social: { facebook: string; youtube: string; zalo: string };
  sponsors: Sponsor[];
  businessLicence: string;
  contest?: SiteContest | null;
}

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
  const [site, setSite] = useState<SiteInfo | null>(null);
  useEffect(() => {
    let active = true;
    loadSite().then(
      (info) => active && setSite(info),
      (error: unknown) => console.warn('Không tải được thông tin trang', error),
    );
    return () => {
      active = false;
    };
  }, []);
  return site;
}
