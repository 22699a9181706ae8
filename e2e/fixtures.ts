// Shared fixtures: a page that fails the test on an unexpected console error, and the SMS
// outbox of the server (log driver) to read one-time codes from.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E_DATA_DIR, SHORT_EXAM_DATA_DIR } from '../playwright.config';

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        // Failed requests the test provokes on purpose (401, 404, offline) are logged by the
        // browser itself as "Failed to load resource"; the app's own errors are not like that.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export interface OutboxMessage {
  phone: string;
  message: string;
  created_at: string;
}

/** The messages both test servers have sent (phones are unique across them). */
export function readOutbox(): OutboxMessage[] {
  return [E2E_DATA_DIR, SHORT_EXAM_DATA_DIR].flatMap((dir) => {
    const file = join(dir, 'sms-outbox.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as OutboxMessage);
  });
}

/** The newest 6-digit code sent to `phone`, waiting up to 10 s for it. */
export async function otpFor(phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const message = readOutbox().filter((m) => m.phone === phone).at(-1);
      code = message?.message.match(/\b(\d{6})\b/)?.[1];
      return code;
    }, { timeout: 10_000 })
    .toBeTruthy();
  return code!;
}

/** A fresh mobile number for each call, unlikely to collide across runs. */
let counter = 0;
export function uniquePhone(): string {
  counter += 1;
  return `09${String((Date.now() % 1e6) * 10 + counter).padStart(8, '0').slice(-8)}`;
}

export const phoneViewport = { width: 360, height: 740 };

export async function gotoAndWait(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

/**
 * The accessibility scan (axe-core, WCAG 2.0/2.1 A and AA) of what the page shows now: no
 * violation. Call it on every screen and state a test reaches, error states included.
 */
export async function expectAccessible(page: Page, label = page.url()) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
  expect(found, `accessibility violations on ${label}`).toEqual([]);
}
