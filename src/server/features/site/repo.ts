// The footer's texts: the stored row (site_settings), or the configuration's defaults while there
// is none. Read per request, never cached in the process: a change holds at once everywhere.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { siteFooterSchema, type SiteFooter } from '../../../shared/schemas/site';

export async function loadFooter(db: Db, defaults: Config['site']): Promise<{ footer: SiteFooter; fromConfig: boolean }> {
  const row = await db.selectFrom('site_settings').select('data').executeTakeFirst();
  if (row) {
    // A row written by an older version may lack a newer field: the default fills it.
    const parsed = siteFooterSchema.safeParse({ ...defaults, ...(row.data as object) });
    if (parsed.success) return { footer: parsed.data, fromConfig: false };
  }
  return { footer: { ...defaults, social: { ...defaults.social }, sponsors: [...defaults.sponsors] }, fromConfig: true };
}

export async function saveFooter(db: Db, footer: SiteFooter): Promise<void> {
  const data = JSON.stringify(footer);
  await db
    .insertInto('site_settings')
    .values({ id: true, data })
    .onConflict((oc) => oc.column('id').doUpdateSet({ data, updated_at: new Date() }))
    .execute();
}
