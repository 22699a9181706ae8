// Messages to families (0050_messages.sql, decision 040).
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, NullableTimestamp, Timestamp } from './columns';
import type { Audience, Channel, RecipientStatus, TemplateKind } from '../../../shared/schemas/admin-messages';

/** A `date` column, written and read as 'yyyy-mm-dd' text (cast with ::text when selected). */
type DayText = ColumnType<string, string, string>;

export interface MessageSettingsTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  sms_segment_price: number;
  zns_price: number;
  sms_daily_cap: number;
  zns_daily_cap: number;
}
export interface MessageCampaignTable {
  id: Generated<number>;
  contest_id: number;
  template: TemplateKind;
  body: string;
  segments: number;
  channel: Channel;
  zns_template_id: Generated<string>;
  zns_params: ColumnType<Record<string, string>, string | undefined, never>;
  audience: ColumnType<Audience, string, never>;
  audience_label: string;
  urgent: Generated<boolean>;
  send_after: Timestamp;
  estimated_cost: number;
  created_by: number | null;
  created_at: DefaultTimestamp;
}
export interface MessageRecipientTable {
  id: Generated<number>;
  campaign_id: number;
  user_id: number;
  status: ColumnType<RecipientStatus, RecipientStatus | undefined, RecipientStatus>;
  channel: Channel | null;
  reason: Generated<string>;
  attempts: Generated<number>;
  lease_until: NullableTimestamp;
  sent_at: NullableTimestamp;
  reminder_day: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface MessageOptOutTable {
  user_id: number;
  token: string;
  opted_out_at: NullableTimestamp;
}
export interface MessageDailyCountTable {
  day: DayText;
  channel: Channel;
  sent: Generated<number>;
}
