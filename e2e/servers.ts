// The servers of one Playwright worker (issue 39: browser tests in several workers). Each worker
// runs its own compiled server (node dist/server/main.mjs, built once by global-setup.ts) on a port
// and an embedded database of its own, with the demo content, and, when a spec asks for it, a
// second one whose contest has a 25-second exam (prepare-short-exam.ts). A spec file runs whole in
// one worker, its tests in order, so a file sees the state the earlier files of its worker left, as
// it did with one shared server; no two workers ever share a database.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, rmSync } from 'node:fs';

export type ServerKind = 'demo' | 'short-exam';

const BASE_PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
/** The port of the server that makes the demo template in global-setup.ts, before any other starts. */
const TEMPLATE_OFFSET = 4;

/**
 * The seeded data folders every server of a run starts from (issue 39: the test loop): made once by
 * global-setup.ts, the demo one by the compiled server's own start with SEED_DEMO (migrations, the
 * demo content, last season), the short-exam one by prepare-short-exam.ts. A server's folder is a
 * copy, so that no two servers share a database, and its start is 1.9 s instead of 6.5.
 */
export const templateDirOf = (kind: ServerKind) => `${BASE_DATA_DIR}-template-${kind}`;

/** A fresh data folder for a server: the kind's seeded template, copied. */
function freshDataDir(dataDir: string, kind: ServerKind) {
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(templateDirOf(kind), dataDir, { recursive: true });
}

/** Makes both templates, side by side (global-setup.ts, after the server is built). */
export async function makeTemplates() {
  const exited = async (child: ChildProcess, what: string) => {
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    if (code !== 0 && signal !== 'SIGTERM') throw new Error(`${what} failed (${code ?? signal})`);
  };
  const demo = async () => {
    const dataDir = templateDirOf('demo');
    rmSync(dataDir, { recursive: true, force: true });
    const port = BASE_PORT + TEMPLATE_OFFSET;
    const server = spawn(process.execPath, ['dist/server/main.mjs'], { env: { ...process.env, ...serverEnv, PORT: String(port), DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit'] });
    const done = exited(server, 'the demo template server');
    await waitUntilReady(`http://127.0.0.1:${port}`, server, 120_000);
    server.kill('SIGTERM');
    await done;
  };
  const shortExam = async () => {
    const dataDir = templateDirOf('short-exam');
    rmSync(dataDir, { recursive: true, force: true });
    // PGlite's files are opened by one process at a time: the contest made short before any server opens them.
    const prepare = spawn(process.execPath, ['--import', 'tsx', 'e2e/prepare-short-exam.ts'], { env: { ...process.env, ...serverEnv, DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit'] });
    await exited(prepare, 'e2e/prepare-short-exam.ts');
  };
  await Promise.all([demo(), shortExam()]);
}

/**
 * Worker n's servers listen on BASE+10(n+1) (demo) and the next port (short exam); the specs with
 * a server of their own keep BASE+2 (admin-results), BASE+3 (admin-results-same-second), BASE+5 (season),
 * BASE+6 (admin-catalog-move), BASE+7 (certificate-printing) and BASE+8 (winners).
 */
export function portOf(parallelIndex: number, kind: ServerKind): number {
  return BASE_PORT + 10 * (parallelIndex + 1) + (kind === 'short-exam' ? 1 : 0);
}

export function dataDirOf(parallelIndex: number, kind: ServerKind): string {
  return `${BASE_DATA_DIR}-w${parallelIndex}${kind === 'short-exam' ? '-short-exam' : ''}`;
}

// The password hashing queue unbounded, as for the API tests' servers (decision 031): on a machine
// running the API tests or other jobs beside the browsers, a hash takes several times its quiet
// time and the logins of three workers at once were refused with the 503 "quá nhiều người đăng nhập"
// (a bound for an exam morning's crowd, tested in password-hashing.api.test.ts), not what these specs check.
const serverEnv = { NODE_ENV: 'test', HOST: '127.0.0.1', SEED_DEMO: '1', LOG_LEVEL: 'warn', EXAM_SWEEP_SECONDS: '5', PASSWORD_HASH_QUEUE_MS: '0' };

async function waitUntilReady(url: string, server: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the test server for ${url} exited with ${server.exitCode} before it was ready`);
    const status = await fetch(`${url}/readyz`).then((response) => response.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the test server for ${url} was not ready within ${timeoutMs / 1000} s`);
}

/** Starts a worker's servers the first time a test asks for them; stops them when the worker ends. */
export class WorkerServers {
  private readonly started = new Map<ServerKind, { url: string; process: ChildProcess }>();
  private readonly starting = new Map<ServerKind, Promise<string>>();

  constructor(readonly parallelIndex: number) {}

  /** Whether the server of that kind has been asked for already (it may still be starting). */
  asked(kind: ServerKind): boolean {
    return this.starting.has(kind);
  }

  urlOf(kind: ServerKind): Promise<string> {
    let url = this.starting.get(kind);
    if (!url) {
      url = this.start(kind);
      this.starting.set(kind, url);
    }
    return url;
  }

  private async start(kind: ServerKind): Promise<string> {
    const port = portOf(this.parallelIndex, kind);
    const dataDir = dataDirOf(this.parallelIndex, kind);
    const env = { ...process.env, ...serverEnv, PORT: String(port), DATA_DIR: dataDir };
    freshDataDir(dataDir, kind);
    const server = spawn(process.execPath, ['dist/server/main.mjs'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const url = `http://127.0.0.1:${port}`;
    this.started.set(kind, { url, process: server });
    // A worker that ends without its teardown (killed by a timeout) takes its servers with it.
    process.once('exit', () => server.kill('SIGKILL'));
    await waitUntilReady(url, server, 120_000);
    return url;
  }

  async stopAll() {
    await Promise.all(
      [...this.started.values()].map(async ({ process: server }) => {
        if (server.exitCode !== null || server.signalCode !== null) return;
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }),
    );
    this.started.clear();
    this.starting.clear();
  }
}

/** The address of the server a spec starts with startOwnServer(offset, ...), known before it starts (for test.use). */
export const ownServerUrl = (offset: number) => `http://127.0.0.1:${BASE_PORT + offset}`;
/** Its data folder (the SMS outbox the spec reads codes from). */
export const ownDataDirOf = (name: string) => `${BASE_DATA_DIR}-${name}`;

/**
 * A server of one spec's own (a journey that cannot be undone, such as publishing results): the
 * compiled server with the demo content on a fresh data folder (a copy of the demo template), at BASE+offset.
 */
export async function startOwnServer(
  offset: number,
  name: string,
  options: {
    /** Settings of this server's own, over the shared ones. */
    env?: Record<string, string>;
    /** A server command (scripts/server-command.mjs) run on the fresh data folder before the server opens it. */
    prepare?: string[];
  } = {},
): Promise<{ url: string; dataDir: string; stop: () => Promise<void> }> {
  const port = BASE_PORT + offset;
  const dataDir = ownDataDirOf(name);
  // A prepared server seeds its own folder with its command (the demo without last season, as before).
  if (options.prepare) rmSync(dataDir, { recursive: true, force: true });
  else freshDataDir(dataDir, 'demo');
  if (options.prepare) {
    const command = spawn(process.execPath, ['scripts/server-command.mjs', ...options.prepare], { env: { ...process.env, ...serverEnv, ...options.env, DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit'] });
    const [code, signal] = (await once(command, 'exit')) as [number | null, string | null];
    if (code !== 0) throw new Error(`${options.prepare.join(' ')} failed (${code ?? signal})`);
  }
  const server = spawn(process.execPath, ['dist/server/main.mjs'], { env: { ...process.env, ...serverEnv, ...options.env, PORT: String(port), DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'inherit'] });
  process.once('exit', () => server.kill('SIGKILL'));
  const url = ownServerUrl(offset);
  await waitUntilReady(url, server, 120_000);
  return {
    url,
    dataDir,
    stop: async () => {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    },
  };
}
