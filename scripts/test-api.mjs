// Runs the API tests against the embedded PGlite and against PostgreSQL at the same time (issue 39:
// the test loop; each pass prints its output whole when it ends): the server named by
// TEST_DATABASE_URL, or else the machine's local one at 127.0.0.1:5432 when it answers.
// Each test file works in a schema of its own, dropped at the end. Arguments go to both vitest runs
// (a file filter, `-t name`).
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

/** A word for the shell, quoted. */
const quoted = (word) => `'${word.replaceAll("'", `'\\''`)}'`;
// The server's address goes through the environment, so that a password in it is not printed.
const vitest = (databaseUrl) => `TEST_DATABASE_URL=${databaseUrl} npx vitest run --project api ${extra.map(quoted).join(' ')}`.trim();

const postgresUrl = process.env.TEST_DATABASE_URL || ((await reachable(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : undefined);
if (!postgresUrl && process.env.CI) {
  console.error('\nNo PostgreSQL server reachable (set TEST_DATABASE_URL): CI requires the PostgreSQL run.');
  process.exit(1);
}
if (!postgresUrl) console.log('\nNo PostgreSQL server reachable: the PostgreSQL run is skipped (set TEST_DATABASE_URL).');
const passes = [vitest(''), ...(postgresUrl ? [vitest('"$API_TESTS_POSTGRES_URL"')] : [])];
const result = spawnSync(process.execPath, ['scripts/run-together.mjs', ...passes], {
  stdio: 'inherit',
  env: { ...process.env, API_TESTS_POSTGRES_URL: postgresUrl ?? '' },
});
process.exit(result.status ?? 1);
