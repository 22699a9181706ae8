// The only reader of process.env. Validated at start-up with a list of every bad variable.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true' || value === 'yes');
const optionalText = z.string().trim().optional().transform((value) => value || undefined);
const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Connections the kernel holds for the server before it accepts them (listen backlog; Node's own
   * default is 511). Linux caps it at net.core.somaxconn (4096 by default since kernel 5.4).
   */
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(2048),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  DATABASE_URL: optionalText.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres://').optional()),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Read replicas (streaming standbys of DATABASE_URL's server), comma-separated: docs/decisions/030. */
  DATABASE_REPLICA_URL: optionalText.pipe(
    z
      .string()
      .transform((value) => value.split(',').map((url) => url.trim()).filter(Boolean))
      .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, 'each URL must start with postgres://')))
      .optional(),
  ),
  /** A replica further behind the primary than this (seconds) is not read from until it catches up. */
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  /**
   * A read on a replica not answered within this (ms) is given up and sent to the primary: a standby
   * that hangs (a frozen machine, not a closed port) must not hold the reads sent to it.
   */
  REPLICA_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** Hot statements as named prepared statements; 0 behind a pooler that cannot keep them (PgBouncer < 1.21). */
  DATABASE_NAMED_STATEMENTS: z.enum(['1', '0', 'true', 'false']).default('1').transform((value) => value === '1' || value === 'true'),
  DATA_DIR: z.string().default('./data'),
  ALLOW_PGLITE_IN_PRODUCTION: flag,
  /** Load the demo content (and open the exam window from today) when the database is empty. */
  SEED_DEMO: flag.optional(),
  /** Number of reverse proxies in front of the app (for the client IP of rate limits). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  // Required in production; elsewhere http://localhost:<PORT> (see loadConfig).
  PUBLIC_URL: z.string().url().optional(),
  /** Period of the background sweep that finalises overdue exams, in seconds (0 = off). */
  EXAM_SWEEP_SECONDS: count(30),
  /** Processes `npm run serve` starts on this machine (0 = one per core). */
  WORKERS: count(0),

  // Load shedding and timeouts: answer 503 quickly rather than queue without bound.
  /** A request not answered within this many milliseconds gets a 503 (the client retries). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  /**
   * A request (headers and body) not all received within this many milliseconds gets a 408 and its
   * connection is closed: a slow body cannot hold a connection (behind nginx, which buffers bodies,
   * the app receives them at once).
   */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  /**
   * How long an import file may take to be read (in its worker thread) before the import gets a
   * 503 and the worker is stopped, in ms; under REQUEST_TIMEOUT_MS, so the import answers first.
   * Unset: 12 s, or 80 % of REQUEST_TIMEOUT_MS when that is shorter.
   */
  IMPORT_READ_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).optional(),
  /**
   * The longest (ms) a new request may expect to wait behind the requests admitted and not yet
   * answered (in flight / answers per second over the last second); beyond it, 503 at once (0 = off).
   */
  SHED_QUEUE_MS: count(100),
  /** Requests in flight always admitted, whatever the rate (a process idle until now serves a burst). */
  SHED_IN_FLIGHT_MIN: z.coerce.number().int().min(1).default(256),
  /** Mean event-loop delay (ms) over the last 100 ms above which new requests are shed with 503 (0 = off). */
  SHED_EVENT_LOOP_DELAY_MS: count(50),
  /** Requests waiting for a database connection above which new ones are shed (0 = off). */
  SHED_DB_WAITING: count(500),
  /** Exam saves waiting to be written above which new saves are shed (per process). */
  SAVE_QUEUE_LIMIT: z.coerce.number().int().min(1).default(5000),
  /** How long a save may wait in the queue before it is answered 503 (ms): served or refused within about a second. */
  SAVE_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(100).default(1000),
  /**
   * Password hashing (logins, registrations, password changes, one-time codes): the longest (ms) a
   * new hash may expect to take until done, its wait in the hashing queue included; beyond it, 503
   * at once (0 = no limit). Docs/decisions/031.
   */
  PASSWORD_HASH_QUEUE_MS: count(2000),
  /**
   * Hashes run at once, each on a thread of libuv's pool (4 threads, shared with files, DNS and
   * compression). Unset: one core fewer than the machine has, at least 1 and at most 3 (a core left
   * for the event loop and PostgreSQL, so that exam saves stay fast during a login storm; a thread
   * of the pool left for the rest). Decision 031.
   */
  PASSWORD_HASH_THREADS: z.coerce.number().int().min(1).max(64).optional(),

  // Metrics (Prometheus text at GET /metrics): never on the public port.
  /** A separate port that serves only /metrics, bound to METRICS_HOST (0 = none). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  METRICS_HOST: z.string().default('127.0.0.1'),

  // SMS
  SMS_DRIVER: z.enum(['log', 'esms']).optional(),
  ALLOW_LOG_SMS_IN_PRODUCTION: flag,
  ESMS_API_KEY: optionalText,
  ESMS_SECRET_KEY: optionalText,
  ESMS_BRAND_NAME: optionalText,
  ESMS_BASE_URL: z.string().url().default('https://rest.esms.vn/MainService.svc/json'),
  SMS_TIMEOUT_MS: count(10_000),
  // Messages to families (features/admin/messages, decision 040)
  ZNS_DRIVER: z.enum(['off', 'log', 'zalo']).optional(),
  ZNS_ACCESS_TOKEN: optionalText,
  ZNS_BASE_URL: z.string().url().default('https://business.openapi.zalo.me'),
  /** The approved ZNS template of the one-time code (parameter `otp`): set, codes go by ZNS first, SMS as the fallback. */
  ZNS_OTP_TEMPLATE_ID: optionalText,
  MESSAGES_SMS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
  MESSAGES_ZNS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
  MESSAGES_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  MESSAGES_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),

  // Abuse limits (production defaults are strict; development ones let test suites run).
  OTP_RESEND_COOLDOWN_SECONDS: count(60),
  OTP_DAILY_CAP_PER_PHONE: z.coerce.number().int().min(1).optional(),
  OTP_DAILY_CAP_PER_IP: z.coerce.number().int().min(1).optional(),
  LOGIN_MAX_FAILURES_PER_PHONE: z.coerce.number().int().min(1).optional(),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).optional(),
  LOGIN_FAILURE_WINDOW_SECONDS: count(900),
  /** Wrong passwords a known device (device cookie) may make before it counts as unknown again. */
  LOGIN_MAX_FAILURES_PER_DEVICE: z.coerce.number().int().min(1).default(5),
  /** Longest delay of a wrong password once its address is past half its limit, ms (0 = none). */
  LOGIN_FAILURE_DELAY_MAX_MS: z.coerce.number().int().min(0).max(10_000).default(2000),
  /** Key of the device cookies' signature (at least 32 characters); required in production. */
  DEVICE_COOKIE_SECRET: optionalText,

  // Site and footer texts (shown to visitors).
  // No year: the contest's year comes from its settings (contests.name and dates).
  SITE_NAME: z.string().default('Cuộc thi Đại sứ Văn hoá đọc tỉnh An Hoà'),
  ORGANISER_NAME: z.string().default('Công ty Cổ phần Sách và Thiết bị Giáo dục An Hoà'),
  ORGANISER_ADDRESS: z.string().default('Số 12 đường Lê Lợi, phường Minh Khai, thành phố An Hoà, tỉnh An Hoà'),
  HOTLINE: z.string().default('0912 345 678'),
  CONTACT_EMAIL: z.string().email().default('cuocthi@sachanhoa.vn'),
  FACEBOOK_URL: z.string().url().optional(),
  YOUTUBE_URL: z.string().url().optional(),
  ZALO_URL: z.string().url().optional(),
  /** JSON list of sponsors: [{"name":"…","logo":"/images/…","url":"https://…"}] */
  SPONSORS_JSON: z.string().optional(),
  BUSINESS_LICENCE: z
    .string()
    .default('Giấy chứng nhận đăng ký doanh nghiệp số 0101234567 do Sở Kế hoạch và Đầu tư tỉnh An Hoà cấp ngày 15/03/2010.'),
});

const sponsorSchema = z.array(z.object({ name: z.string(), logo: z.string(), url: z.string().url() }));

const DEFAULT_SPONSORS = [
  { name: 'Nhà xuất bản Giáo dục An Hoà', logo: '/images/sponsors/nxb-an-hoa.svg', url: 'https://example.com/nxb-an-hoa' },
  { name: 'Thư viện tỉnh An Hoà', logo: '/images/sponsors/thu-vien.svg', url: 'https://example.com/thu-vien-an-hoa' },
  { name: 'Quỹ Khuyến học An Hoà', logo: '/images/sponsors/khuyen-hoc.svg', url: 'https://example.com/khuyen-hoc' },
];

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const problems: string[] = [];

  if (production && !e.DATABASE_URL && !e.ALLOW_PGLITE_IN_PRODUCTION) {
    problems.push(
      'DATABASE_URL: required in production (the embedded PGlite runs one query at a time and does not fsync); ' +
        'set ALLOW_PGLITE_IN_PRODUCTION=1 to run on it anyway',
    );
  }
  if (e.DATABASE_REPLICA_URL?.length && !e.DATABASE_URL) problems.push('DATABASE_REPLICA_URL: needs DATABASE_URL (replicas are standbys of a PostgreSQL primary)');
  // Links in SMS messages and on certificates: a wrong address would be printed for good.
  if (production && !e.PUBLIC_URL) problems.push("PUBLIC_URL: required in production (the site's public address, e.g. https://cuocthi.example.vn)");
  const smsDriver = e.SMS_DRIVER ?? (production ? 'esms' : 'log');
  if (smsDriver === 'esms') {
    for (const key of ['ESMS_API_KEY', 'ESMS_SECRET_KEY', 'ESMS_BRAND_NAME'] as const) {
      if (!e[key]) problems.push(`${key}: required when SMS_DRIVER is esms`);
    }
  }
  if (production && smsDriver === 'log' && !e.ALLOW_LOG_SMS_IN_PRODUCTION) {
    problems.push('SMS_DRIVER: "log" sends no SMS; in production set ALLOW_LOG_SMS_IN_PRODUCTION=1 to use it anyway');
  }
  const znsDriver = e.ZNS_DRIVER ?? (production ? (e.ZNS_ACCESS_TOKEN ? 'zalo' : 'off') : 'log');
  if (e.ZNS_OTP_TEMPLATE_ID && znsDriver === 'off') problems.push('ZNS_OTP_TEMPLATE_ID: needs ZNS_DRIVER zalo (or log)');
  if (znsDriver === 'zalo' && !e.ZNS_ACCESS_TOKEN) problems.push('ZNS_ACCESS_TOKEN: required when ZNS_DRIVER is zalo (the Official Account\'s access token)');
  if (production && znsDriver === 'log' && !e.ALLOW_LOG_SMS_IN_PRODUCTION) {
    problems.push('ZNS_DRIVER: "log" sends nothing; in production set ALLOW_LOG_SMS_IN_PRODUCTION=1 to use it anyway');
  }
  if (production && !e.DEVICE_COOKIE_SECRET) {
    problems.push('DEVICE_COOKIE_SECRET: required in production (at least 32 random characters, e.g. from `openssl rand -base64 48`)');
  }
  const importReadTimeoutMs = e.IMPORT_READ_TIMEOUT_MS ?? Math.min(12_000, Math.floor(e.REQUEST_TIMEOUT_MS * 0.8));
  if (importReadTimeoutMs >= e.REQUEST_TIMEOUT_MS) problems.push('IMPORT_READ_TIMEOUT_MS: must be under REQUEST_TIMEOUT_MS');
  if (e.DEVICE_COOKIE_SECRET && e.DEVICE_COOKIE_SECRET.length < 32) problems.push('DEVICE_COOKIE_SECRET: must be at least 32 characters');
  let sponsors = DEFAULT_SPONSORS;
  if (e.SPONSORS_JSON) {
    try {
      sponsors = sponsorSchema.parse(JSON.parse(e.SPONSORS_JSON));
    } catch {
      problems.push('SPONSORS_JSON: must be a JSON list of {name, logo, url}');
    }
  }
  if (problems.length) throw new ConfigError(problems);

  return Object.freeze({
    env: e.NODE_ENV,
    production,
    host: e.HOST,
    port: e.PORT,
    listenBacklog: e.LISTEN_BACKLOG,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'warn' : 'info'),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseReplicaUrls: e.DATABASE_REPLICA_URL ?? [],
    replicaMaxLagSeconds: e.REPLICA_MAX_LAG_SECONDS,
    replicaQueryTimeoutMs: e.REPLICA_QUERY_TIMEOUT_MS,
    databaseNamedStatements: e.DATABASE_NAMED_STATEMENTS,
    dataDir: e.DATA_DIR,
    seedDemo: e.SEED_DEMO ?? !production,
    trustProxy: e.TRUST_PROXY,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    examSweepSeconds: e.EXAM_SWEEP_SECONDS,
    workers: e.WORKERS,
    load: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      requestBodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS,
      importReadTimeoutMs,
      shedQueueMs: e.SHED_QUEUE_MS,
      shedInFlightMin: e.SHED_IN_FLIGHT_MIN,
      shedEventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS,
      shedDbWaiting: e.SHED_DB_WAITING,
      saveQueueLimit: e.SAVE_QUEUE_LIMIT,
      saveQueueTimeoutMs: e.SAVE_QUEUE_TIMEOUT_MS,
    },
    passwordHashing: {
      queueMs: e.PASSWORD_HASH_QUEUE_MS,
      threads: e.PASSWORD_HASH_THREADS ?? Math.max(1, Math.min(3, availableParallelism() - 1)),
    },
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST },
    sms: {
      driver: smsDriver,
      timeoutMs: e.SMS_TIMEOUT_MS,
      esms: { apiKey: e.ESMS_API_KEY ?? '', secretKey: e.ESMS_SECRET_KEY ?? '', brandName: e.ESMS_BRAND_NAME ?? '', baseUrl: e.ESMS_BASE_URL },
    },
    messages: {
      zns: { driver: znsDriver, accessToken: e.ZNS_ACCESS_TOKEN ?? '', baseUrl: e.ZNS_BASE_URL, otpTemplateId: e.ZNS_OTP_TEMPLATE_ID ?? '' },
      smsPerSecond: e.MESSAGES_SMS_PER_SECOND,
      znsPerSecond: e.MESSAGES_ZNS_PER_SECOND,
      leaseSeconds: e.MESSAGES_LEASE_SECONDS,
      retrySeconds: e.MESSAGES_RETRY_SECONDS,
    },
    limits: {
      otpResendCooldownSeconds: e.OTP_RESEND_COOLDOWN_SECONDS,
      otpDailyCapPerPhone: e.OTP_DAILY_CAP_PER_PHONE ?? (production ? 5 : 50),
      otpDailyCapPerIp: e.OTP_DAILY_CAP_PER_IP ?? (production ? 30 : 5000),
      loginMaxFailuresPerPhone: e.LOGIN_MAX_FAILURES_PER_PHONE ?? (production ? 10 : 50),
      loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP ?? (production ? 100 : 5000),
      loginFailureWindowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
      loginMaxFailuresPerDevice: e.LOGIN_MAX_FAILURES_PER_DEVICE,
      loginFailureDelayMaxMs: e.LOGIN_FAILURE_DELAY_MAX_MS,
    },
    // Outside production a random key per process: nobody can forge a cookie, and a cookie from
    // another process or an earlier run only counts as an unknown device (no lockout, no error).
    deviceCookieSecret: e.DEVICE_COOKIE_SECRET ?? randomBytes(32).toString('base64url'),
    /** What the browser may see: an explicit list. */
    site: {
      siteName: e.SITE_NAME,
      organiserName: e.ORGANISER_NAME,
      organiserAddress: e.ORGANISER_ADDRESS,
      hotline: e.HOTLINE,
      contactEmail: e.CONTACT_EMAIL,
      social: {
        facebook: e.FACEBOOK_URL ?? 'https://www.facebook.com/',
        youtube: e.YOUTUBE_URL ?? 'https://www.youtube.com/',
        zalo: e.ZALO_URL ?? 'https://zalo.me/',
      },
      sponsors,
      businessLicence: e.BUSINESS_LICENCE,
    },
  });
}
