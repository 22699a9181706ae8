// The app as the benchmarks start it: production mode on loopback, one process, the log SMS driver,
// no demo content, a throwaway device-cookie key (production requires one) and a data folder of
// its own. Each benchmark adds what it measures (pool size, metrics port, ...).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let built = false;

/**
 * The server as production runs it (decision 022): the path of `dist/server/main.mjs` (relative to
 * the repository, the scripts' working folder), built from the current source by
 * scripts/build-server.mjs at the first call of a run (about a second), to be started with plain
 * `node`. The benchmarks and `npm run chaos` measure and break the compiled server, not tsx.
 */
export function compiledServer(): string {
  if (!built) {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    built = true;
  }
  return 'dist/server/main.mjs';
}

export function productionAppEnv(port: number, databaseUrl: string, name: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DEVICE_COOKIE_SECRET: 'bench-only-device-cookie-secret-0123456789',
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(tmpdir(), `${name}-${process.pid}`),
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    SMS_DRIVER: 'log',
    ALLOW_LOG_SMS_IN_PRODUCTION: '1',
    WORKERS: '1',
  };
}

/**
 * Starts the compiled server in production mode (productionAppEnv, then `env`) on `port` and waits
 * up to 60 s for its /readyz; the child joins `children` (stopped by runBenchmark). For
 * investigation, BENCH_APP_NODE_ARGS (e.g. "--trace-gc" or "--cpu-prof --cpu-prof-dir=.tmp/prof")
 * is passed to its node, and its output is then shown.
 */
export async function spawnProductionApp(options: {
  port: number;
  databaseUrl: string;
  name: string;
  env?: Record<string, string>;
  children: ChildProcess[];
}): Promise<{ port: number; pid: number }> {
  const { port } = options;
  const nodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, compiledServer()], {
    cwd: ROOT,
    env: { ...process.env, ...productionAppEnv(port, options.databaseUrl, options.name), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.children.push(child);
  if (nodeArgs.length > 0) child.stdout!.on('data', (chunk: Buffer) => process.stderr.write(`[app] ${chunk}`));
  else child.stdout!.resume();
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[app] ${chunk}`));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the app exited while starting');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return { port, pid: child.pid! };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the app did not become ready within 60 s');
}

/**
 * A throwaway database `<prefix>_<pid>` on the loopback PostgreSQL server named by
 * BENCH_DATABASE_URL (default the machine's local one), and its dropping.
 */
export async function createLoopbackDatabase(
  prefix: string,
): Promise<{ databaseName: string; databaseUrl: string; drop(options?: { keep?: boolean }): Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!/^postgres(ql)?:\/\/[^/]*@?(127\.0\.0\.1|localhost)(:\d+)?\//.test(adminUrl)) throw new Error('BENCH_DATABASE_URL must point at a PostgreSQL server on loopback');
  const databaseName = `${prefix}_${process.pid}`;
  const parsed = new URL(adminUrl);
  parsed.pathname = `/${databaseName}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  return {
    databaseName,
    databaseUrl: parsed.toString(),
    /** Drops it (with `keep`, leaves it for a look and says so). */
    async drop({ keep = false } = {}) {
      if (keep) console.log(`kept database ${databaseName}`);
      else await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch((error) => console.error('drop failed', error));
      await admin.end();
    },
  };
}

/** Runs a benchmark's main: on Ctrl-C or a failure its child processes are stopped, and the exit code says which. */
export function runBenchmark(main: () => Promise<void>, children: readonly { kill(signal: NodeJS.Signals): unknown }[]) {
  const stopChildren = () => {
    for (const child of children) child.kill('SIGTERM');
  };
  process.on('SIGINT', () => {
    stopChildren();
    process.exit(130);
  });
  main().catch((error) => {
    console.error(error);
    stopChildren();
    process.exit(1);
  });
}
