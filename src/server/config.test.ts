import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

/** The problems loadConfig refuses `env` for (fails the test when it accepts it). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return expect.unreachable('the configuration was accepted');
}

const SECRET = 'a-device-cookie-secret-of-32-characters-or-more';

describe('configuration', () => {
  it('has safe defaults for development', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe('./data');
    expect(config.sms.driver).toBe('log');
    expect(config.seedDemo).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('outside production, the public address follows PORT unless PUBLIC_URL is given', () => {
    expect(loadConfig({ PORT: '3456' }).publicUrl).toBe('http://localhost:3456');
    expect(loadConfig({ PORT: '3456', PUBLIC_URL: 'https://thi.example.vn/' }).publicUrl).toBe('https://thi.example.vn');
  });

  it('refuses to start in production on PGlite or with the log SMS driver unless told', () => {
    const bare = problemsOf({ NODE_ENV: 'production' }).join('\n');
    expect(bare).toContain('DATABASE_URL: required in production');
    expect(bare).toContain('ESMS_API_KEY');
    expect(bare).toContain('PUBLIC_URL: required in production');
    expect(bare).toContain('DEVICE_COOKIE_SECRET: required in production');
    // Everything else in order: the log SMS driver alone is refused, by name.
    const withLogSms = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/contest',
      PUBLIC_URL: 'https://thi.example.vn',
      DEVICE_COOKIE_SECRET: SECRET,
      SMS_DRIVER: 'log',
    };
    expect(problemsOf(withLogSms)).toEqual([
      'SMS_DRIVER: "log" sends no SMS; in production set ALLOW_LOG_SMS_IN_PRODUCTION=1 to use it anyway',
    ]);
    expect(loadConfig({ ...withLogSms, ALLOW_LOG_SMS_IN_PRODUCTION: '1' }).sms.driver).toBe('log');
    const config = loadConfig({
      NODE_ENV: 'production',
      ALLOW_PGLITE_IN_PRODUCTION: '1',
      SMS_DRIVER: 'log',
      ALLOW_LOG_SMS_IN_PRODUCTION: '1',
      PUBLIC_URL: 'https://thi.example.vn',
      DEVICE_COOKIE_SECRET: SECRET,
    });
    expect(config.production).toBe(true);
    expect(config.publicUrl).toBe('https://thi.example.vn');
    expect(config.seedDemo).toBe(false);
  });

  it('login throttling: strict in production, a random device cookie key outside it', () => {
    const production = loadConfig({ NODE_ENV: 'production', ALLOW_PGLITE_IN_PRODUCTION: '1', SMS_DRIVER: 'log', ALLOW_LOG_SMS_IN_PRODUCTION: '1', PUBLIC_URL: 'https://thi.example.vn', DEVICE_COOKIE_SECRET: SECRET });
    expect(production.limits).toMatchObject({ loginMaxFailuresPerPhone: 10, loginMaxFailuresPerIp: 100, loginMaxFailuresPerDevice: 5, loginFailureDelayMaxMs: 2000, loginFailureWindowSeconds: 900 });
    expect(production.deviceCookieSecret).toBe(SECRET);
    // Nobody can forge a development cookie: the key is random, a new one per process.
    expect(loadConfig({}).deviceCookieSecret).toHaveLength(43);
    expect(loadConfig({}).deviceCookieSecret).not.toBe(loadConfig({}).deviceCookieSecret);
    expect(problemsOf({ DEVICE_COOKIE_SECRET: 'short' })).toEqual(['DEVICE_COOKIE_SECRET: must be at least 32 characters']);
    expect(problemsOf({ LOGIN_FAILURE_DELAY_MAX_MS: '60000' }).join()).toContain('LOGIN_FAILURE_DELAY_MAX_MS');
  });

  it('keeps the import read timeout under the request timeout', () => {
    expect(loadConfig({}).load.importReadTimeoutMs).toBe(12_000);
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '1000' }).load.importReadTimeoutMs).toBe(800);
    expect(loadConfig({ IMPORT_READ_TIMEOUT_MS: '100' }).load.importReadTimeoutMs).toBe(100);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', IMPORT_READ_TIMEOUT_MS: '6000' })).toThrow(/IMPORT_READ_TIMEOUT_MS/);
  });

  it('reads a list of replicas, each a postgres:// URL, only beside DATABASE_URL', () => {
    const primary = 'postgres://app@db1:5432/contest';
    const config = loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: ' postgres://app@db2:5432/contest , postgres://app@db3:5432/contest ' });
    expect(config.databaseReplicaUrls).toEqual(['postgres://app@db2:5432/contest', 'postgres://app@db3:5432/contest']);
    expect(config.replicaMaxLagSeconds).toBe(10);
    expect(loadConfig({ DATABASE_URL: primary }).databaseReplicaUrls).toEqual([]);
    expect(problemsOf({ DATABASE_REPLICA_URL: 'postgres://app@db2:5432/contest' })).toEqual([expect.stringMatching(/^DATABASE_REPLICA_URL: needs DATABASE_URL/)]);
    expect(problemsOf({ DATABASE_URL: primary, DATABASE_REPLICA_URL: 'mysql://db2/contest' })).toEqual([expect.stringMatching(/^DATABASE_REPLICA_URL.*postgres:\/\//)]);
  });

  it('lists every bad variable', () => {
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'mysql://x' }).join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('DATABASE_URL');
  });
});
