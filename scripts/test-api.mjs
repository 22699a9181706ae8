// Runs the API tests against the embedded PGlite, then against PostgreSQL: the server named by
// TEST_DATABASE_URL, or else the machine's local one at 127.0.0.1:5432 when it answers.
// Each test file works in a schema of its own, dropped at the end.
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

function run(label, env) {
  console.log(`\n=== API tests on ${label} ===`);
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'api', ...extra], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const postgresUrl = process.env.TEST_DATABASE_URL || ((await reachable(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : undefined);
run('PGlite', { TEST_DATABASE_URL: '' });
if (postgresUrl) run('PostgreSQL', { TEST_DATABASE_URL: postgresUrl });
else if (process.env.CI) {
  console.error('\nNo PostgreSQL server reachable (set TEST_DATABASE_URL): CI requires the PostgreSQL run.');
  process.exit(1);
} else console.log('\nNo PostgreSQL server reachable: the PostgreSQL run was skipped (set TEST_DATABASE_URL).');
