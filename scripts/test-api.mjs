// Runs the API tests against the embedded PGlite and against PostgreSQL at the same time: the
// server named by TEST_DATABASE_URL, or else the machine's local one at 127.0.0.1:5432 when it
// answers. Each test file works in a schema of its own (on PostgreSQL) or a database of its own (on
// PGlite), so the two passes share nothing; each pass's output is printed whole when it ends
// (scripts/run-together.mjs).
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const extra = process.argv.slice(2);

async function reachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const quoted = extra.map((argument) => `'${argument.replaceAll("'", "'\\''")}'`).join(' ');
const pass = (url) => `TEST_DATABASE_URL=${url} npx vitest run --project api ${quoted}`.trim();

const postgresUrl = process.env.TEST_DATABASE_URL || ((await reachable(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : undefined);
if (!postgresUrl && process.env.CI) {
  console.error('\nNo PostgreSQL server reachable (set TEST_DATABASE_URL): CI requires the PostgreSQL run.');
  process.exit(1);
}
const passes = [pass("''"), ...(postgresUrl ? [pass(`'${postgresUrl}'`)] : [])];
const result = spawnSync(process.execPath, [new URL('./run-together.mjs', import.meta.url).pathname, ...passes], { stdio: 'inherit' });
if (!postgresUrl) console.log('\nNo PostgreSQL server reachable: the PostgreSQL run was skipped (set TEST_DATABASE_URL).');
process.exit(result.status ?? 1);
