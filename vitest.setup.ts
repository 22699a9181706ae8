// Every unit and API test fails on an unexpected console.error (house style, tests point 8): the
// code under test reports what went wrong there, so a quiet pass would hide it. A test that
// provokes one on purpose gets an entry below, with the reason.
import { format } from 'node:util';
import { afterEach, beforeEach } from 'vitest';

const ALLOWED: { text: RegExp; why: string }[] = [];

let unexpected: string[] = [];
// The API project runs several files in one process (isolate: false) and this file again for each:
// keep the real console.error once so the wrappers do not stack.
const realError = Symbol.for('vitest.setup.console.error');
const store = globalThis as { [realError]?: typeof console.error };
const consoleError = (store[realError] ??= console.error.bind(console));

console.error = (...args: unknown[]) => {
  consoleError(...args);
  const text = format(...args);
  if (!ALLOWED.some((allowed) => allowed.text.test(text))) unexpected.push(text);
};

beforeEach(() => {
  unexpected = [];
});

afterEach(() => {
  if (unexpected.length === 0) return;
  const found = unexpected;
  unexpected = [];
  throw new Error(`unexpected console.error:\n${found.join('\n')}`);
});
