// Lints the API's description with Redocly's CLI (rules in redocly.yaml at the repository root).
//
//   npm run lint:api              build the document, lint it, exit non-zero on any error
//   npm run lint:api -- --out F   also keep the document at F
//
// The document is the one GET /api/docs/openapi.json serves, built by the real app
// (features/docs) through app.inject(): no port is opened and no database is reached, as the
// app's build runs no query (the database handle is Kysely's DummyDriver, which answers nothing).
// Offline: Redocly's telemetry and update check are off here and in redocly.yaml.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import type { Database } from '../src/server/db/schema';
import { systemClock } from '../src/server/lib/clock';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: options } = parseArgs({ options: { out: { type: 'string' } } });

const dataDir = mkdtempSync(join(tmpdir(), 'lint-api-'));
const file = options.out ?? join(dataDir, 'openapi.json');
let status: number;
try {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, EXAM_SWEEP_SECONDS: '0', SMS_DRIVER: 'log' });
  const sms = { send: async () => undefined };
  const app = await buildApp({ config, db, clock: systemClock, sms, logger: false, webRoot: join(dataDir, 'no-web') });
  const response = await app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
  await app.close();
  if (response.statusCode !== 200) throw new Error(`GET /api/docs/openapi.json answered ${response.statusCode}: ${response.body}`);
  // Indented, so that a problem's line:column points at something a person can read.
  writeFileSync(file, JSON.stringify(JSON.parse(response.body), null, 2) + '\n');

  const redocly = join(ROOT, 'node_modules', '.bin', 'redocly');
  const run = spawnSync(redocly, ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish', '--max-problems', '500', file], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (run.error) throw run.error;
  status = run.status ?? 1;
} finally {
  if (!options.out) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
