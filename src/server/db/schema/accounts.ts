// Accounts (0001_init.sql, 0002_accounts.sql): users, their sessions and one-time codes, and the
// children they enter (contestants).
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DefaultTimestamp, NullableTimestamp, Timestamp } from './columns';

export type Role = 'parent' | 'school_admin' | 'organiser' | 'province_viewer' | 'unit_viewer';
export interface UserTable {
  id: Generated<number>;
  phone: string;
  name: Generated<string>;
  password_hash: string;
  role: Generated<Role>;
  school_id: number | null;
  created_at: DefaultTimestamp;
  /** 0009_back_office.sql: a locked account cannot log in. */
  locked_at: NullableTimestamp;
  /** 0010_privacy.sql: the privacy notice version agreed to, when, and the owner's deletion. */
  privacy_version: ColumnType<string | null, string | null | undefined, string | null>;
  privacy_consented_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  /** 0012_retention.sql: the last login (a new session). */
  last_login_at: NullableTimestamp;
}
/** 0051_viewers.sql: the units a unit viewer sees (at least one; none for any other role, checked at the commit). */
export interface ViewerUnitTable {
  user_id: number;
  district_id: number;
}
export interface SessionTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** Until then the session may set the password once without the current one (a link or an SMS code proved the phone; 0020). */
  password_reset_until: NullableTimestamp;
  /** Wrong current passwords given in a password change; too many end the session (0020). */
  wrong_password_tries: Generated<number>;
  /** The browser that logged in (its User-Agent, shortened) and its address (0025). */
  user_agent: string | null;
  ip: string | null;
}
export type OtpPurpose = 'register' | 'forgot_password' | 'delete_account';
export interface OtpCodeTable {
  id: Generated<number>;
  phone: string;
  purpose: OtpPurpose;
  code_hash: string;
  ip: string;
  status: ColumnType<'sending' | 'sent', 'sending' | 'sent' | undefined, 'sending' | 'sent'>;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  superseded_at: NullableTimestamp;
}
/** A failed login, or a try whose password is being checked (pending): 0019_login_tries.sql. */
export interface LoginFailureTable {
  id: Generated<number>;
  phone: string;
  ip: string;
  created_at: Timestamp;
  pending: ColumnType<boolean, boolean | undefined, boolean>;
  /** The device cookie's nonce when the try came from a known device; null otherwise. */
  device: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface PasswordResetTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}
export interface ContestantTable {
  id: Generated<number>;
  user_id: number;
  position: number;
  fullname: string;
  district_id: number;
  school_id: number;
  class_group_id: number;
  class_room_id: number | null;
  class_room_other: string | null;
  created_at: DefaultTimestamp;
  /** 0010_privacy.sql: the child's agreement confirmed by the parent; the removal of the name. */
  consent_version: ColumnType<string | null, string | null | undefined, string | null>;
  consented_at: NullableTimestamp;
  anonymised_at: NullableTimestamp;
  /** 0049: the parent's consent to publish the name on the winners' list (notice version, when); NULL: not given. */
  name_consent_version: ColumnType<string | null, string | null | undefined, string | null>;
  name_consented_at: NullableTimestamp;
  /** 0033_seasons.sql: the season (left out on insert: the current one), last season's row of the child, a class to ask again. */
  contest_id: ColumnType<number, number | undefined, number>;
  carried_from_id: ColumnType<number | null, number | null | undefined, number | null>;
  class_pending: Generated<boolean>;
}
export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
