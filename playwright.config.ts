// Browser tests: Debian's Chromium in its headless shell build (/usr/bin/chromium-headless-shell,
// the build Playwright runs headless tests in by default; CHROMIUM_PATH=/usr/bin/chromium for the
// full browser) against the built app on the embedded database with the demo content. The server is the compiled one that production runs (node
// dist/server/main.mjs, decision 022), built once from the current source by e2e/global-setup.ts;
// each worker starts servers of its own, with their own data folders (e2e/servers.ts), so that
// the spec files run in several workers at once (issue 39: the test loop).
import { defineConfig } from '@playwright/test';

/** Where the specs with a server of their own (admin-results, season) put its data folder. */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
/** Every question on the short-exam server begins with this line, then a line break (issue 23.20). */
export const SHORT_EXAM_QUESTION_LEAD = 'Em đọc kĩ rồi trả lời:';

export default defineConfig({
  testDir: 'e2e',
  // A hang's limit, not a speed check: three workers on two cores make a long journey (accounts.spec's
  // first test: 22 s alone) two or three times slower than it is alone.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  globalSetup: './e2e/global-setup.ts',
  // A spec file runs whole in one worker, in order (several share state through their server).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
