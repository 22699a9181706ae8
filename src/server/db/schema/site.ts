// The public site's content: news, uploaded media and the site settings (0009_back_office.sql).
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from './columns';

export interface NewsPostTable {
  id: Generated<number>;
  slug: string;
  name: string;
  image: string;
  body_html: string;
  published: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}
export interface MediaTable {
  sha256: string;
  content_type: string;
  ext: string;
  byte_size: number;
  bytes: Buffer;
  created_at: DefaultTimestamp;
}
export interface SiteSettingsTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  data: ColumnType<unknown, string, string>;
  updated_at: DefaultTimestamp;
}
