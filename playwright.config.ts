// Browser tests: Debian's Chromium (/usr/bin/chromium) against the built app on the embedded
// database, started fresh for each run with the demo content. The server is the compiled one that
// production runs (node dist/server/main.mjs, decision 022), built here from the current source
// (under a second) by the first server's command; the servers start one after the other.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
/** A second server whose contest has a 25-second exam (e2e/prepare-short-exam.ts). */
export const SHORT_EXAM_PORT = PORT + 1;
export const SHORT_EXAM_DATA_DIR = `${E2E_DATA_DIR}-short-exam`;
/** Every question on that server begins with this line, then a line break (issue 23.20). */
export const SHORT_EXAM_QUESTION_LEAD = 'Em đọc kĩ rồi trả lời:';
const serverEnv = { NODE_ENV: 'test', HOST: '127.0.0.1', SEED_DEMO: '1', LOG_LEVEL: 'warn', EXAM_SWEEP_SECONDS: '5' };

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: [
    {
      command: `node scripts/build-server.mjs && rm -rf ${E2E_DATA_DIR} && node dist/server/main.mjs`,
      url: `http://127.0.0.1:${PORT}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...serverEnv, PORT: String(PORT), DATA_DIR: E2E_DATA_DIR },
    },
    {
      command: `rm -rf ${SHORT_EXAM_DATA_DIR} && tsx e2e/prepare-short-exam.ts && node dist/server/main.mjs`,
      url: `http://127.0.0.1:${SHORT_EXAM_PORT}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...serverEnv, PORT: String(SHORT_EXAM_PORT), DATA_DIR: SHORT_EXAM_DATA_DIR },
    },
  ],
});
