// Retention of personal data (0012_retention.sql): the prizes kept after erasure, and the retention
// runs.
import type { Generated } from 'kysely';
import type { Timestamp } from './columns';

export interface PrizeRecordTable {
  contest_id: number;
  contestant_id: number;
  fullname: string;
  school_name: string;
  class_name: string;
  prize_name: string;
  amount: number;
  recorded_at: Timestamp;
}
export interface RetentionRunTable {
  id: Generated<number>;
  ran_at: Timestamp;
  accounts_erased: number;
  contestants_anonymised: number;
  contestants_deleted: number;
  audit_entries_deleted: number;
  prize_records_deleted: number;
}
