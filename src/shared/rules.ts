// Limits and constants of the contest (spec section 9). Times are in the unit their name says.

export const MAX_CONTESTANTS_PER_ACCOUNT = 3;
export const MAX_ATTEMPTS_PER_CONTESTANT = 3;
/** A contestant's attempts in a contest set to `attemptsPerContestant` (never past the spec's 3), before any extra one the organiser gives. */
export const contestAttemptsOf = (attemptsPerContestant: number | undefined) =>
  Math.min(attemptsPerContestant ?? MAX_ATTEMPTS_PER_CONTESTANT, MAX_ATTEMPTS_PER_CONTESTANT);
export const QUESTIONS_PER_EXAM = 20;
/** 20 questions + the prediction question. */
export const TOTAL_EXAM_ITEMS = QUESTIONS_PER_EXAM + 1;
export const POINTS_PER_CORRECT_ANSWER = 5;
export const MAX_POINTS = 100;

export const DEFAULT_EXAM_DURATION_SECONDS = 1200;
export const AUTOSAVE_INTERVAL_MS = 30_000;
export const TIME_RESYNC_INTERVAL_MS = 60_000;
export const TIMEOUT_AUTO_SUBMIT_DELAY_MS = 2_000;
/** Saves arriving this long after the deadline still count (network latency). */
export const SAVE_GRACE_SECONDS = 30;

export const OTP_LENGTH = 6;
export const OTP_VALID_SECONDS = 600;
export const OTP_MAX_WRONG_TRIES = 5;
export const PASSWORD_MIN_LENGTH = 6;
export const CLASS_OTHER_MAX_LENGTH = 5;
/** Value of class_room_id meaning "another class, typed in". */
export const CLASS_ROOM_OTHER = 'other';

export const SESSION_TTL_SECONDS = 86_400;
/** Live sessions of one account at most (phones and browsers of a family); a new login ends the oldest. */
export const MAX_LIVE_SESSIONS_PER_USER = 10;
export const COOKIE_MAX_AGE_SECONDS = 86_400;

export const NOTICE_MS = 1_500;
export const REDIRECT_LOGGED_IN_MS = 1_000;
export const REDIRECT_AFTER_FORGOT_PASSWORD_MS = 1_000;
export const OTP_BUTTON_REENABLE_MS = 1_000;

export const TOP_SCORES_SHOWN = 30;
export const EXPORT_FILE_NAME = 'bao_cao_truong.xlsx';

export const TIME_ZONE = 'Asia/Ho_Chi_Minh';

/** Phone formats of spec section 5: mobile for register / forgot password, plus landline at login. */
export const MOBILE_PHONE_PATTERN = /^0[35789][0-9]{8}$/;
export const LOGIN_PHONE_PATTERN = /^(0[35789][0-9]{8}|02[0-9]{9})$/;

/** Limits of the settings (the database's CHECKs are the same or wider). */
export const contestLimits = {
  nameMax: 200,
  durationSeconds: { min: 60, max: 7200 },
  // At most the spec's 20: an exam is scored 5 points a question up to 100, and the exam screen,
  // the certificate and the ranking are built for that; fewer is allowed (e.g. a short trial).
  questionsPerExam: { min: 1, max: QUESTIONS_PER_EXAM },
  attempts: { min: 1, max: MAX_ATTEMPTS_PER_CONTESTANT },
  classMin: { min: 1, max: 1000 },
  /** Months after the results date that personal data is kept (issue 15). */
  retentionMonths: { min: 1, max: 120 },
  tiersPerKind: 10,
  tierNameMax: 200,
  winnersMax: 100_000,
  /** Đồng for one prize (the column is a 32-bit integer). */
  amountMax: 1_000_000_000,
} as const;

/** Lengths and sizes the back office's catalogue, news and privacy forms accept. */
export const catalogLimits = {
  districtName: 120,
  schoolName: 200,
  address: 300,
  pupilCount: 100_000,
  groupName: 60,
  grades: 20,
  roomName: 20,
  className: 20,
  teacherName: 100,
} as const;

export const NEWS_NAME_MAX = 300;
export const PRIVACY_REASON_MIN = 5;
export const PRIVACY_REASON_MAX = 500;
