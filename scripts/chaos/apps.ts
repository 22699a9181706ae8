// A small supervisor for the app processes of `npm run chaos`: starts the compiled server as
// production runs it (`node dist/server/main.mjs`, built from the current source at the first
// start, decision 022) on a free loopback port (the pid is the server's own, so a SIGKILL hits
// it), logs to a file, tells a crash (an exit nobody asked for) from a kill on purpose.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledServer } from '../lib/bench-app';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export class AppProcess {
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Set before a kill on purpose: an exit without it is a crash. */
  expectedExit = false;
  private constructor(
    readonly name: string,
    readonly port: number,
    readonly metricsPort: number,
    readonly logFile: string,
    private readonly child: ChildProcess,
  ) {
    child.once('exit', (code, signal) => (this.exit = { code, signal }));
  }

  /** `env`: more settings for this process (the failover drill's DATABASE_NAMED_STATEMENTS=0 behind PgBouncer 1.18). */
  static async start(name: string, port: number, databaseUrl: string, dir: string, env: Record<string, string> = {}): Promise<AppProcess> {
    const logFile = join(dir, `${name}.log`);
    const metricsPort = await freePort();
    const log = openSync(logFile, 'a');
    const child = spawn(process.execPath, [compiledServer()], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(dir, 'data'),
        SEED_DEMO: '1',
        LOG_LEVEL: 'warn',
        SMS_DRIVER: 'log',
        METRICS_PORT: String(metricsPort),
        // One process per app: the chaos run itself plays two machines.
        WORKERS: '1',
        ...env,
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const app = new AppProcess(name, port, metricsPort, logFile, child);
    await app.waitReady(60_000);
    return app;
  }

  get pid() {
    return this.child.pid ?? 0;
  }

  get alive() {
    return this.exit === undefined;
  }

  /** Exited by itself (not killed by this script). */
  get crashed() {
    return this.exit !== undefined && !this.expectedExit;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async waitReady(timeoutMs: number) {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (!this.alive) throw new Error(`${this.name} exited while starting:\n${this.logTail()}`);
      try {
        if ((await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) })).status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${this.name} was not ready within ${timeoutMs / 1000} s:\n${this.logTail()}`);
  }

  kill(signal: NodeJS.Signals) {
    this.expectedExit = true;
    if (this.alive) this.child.kill(signal);
  }

  /** SIGTERM (a clean shutdown), then SIGKILL if it has not ended within `graceMs`. */
  async stop(graceMs = 5000) {
    if (!this.alive) return;
    this.kill('SIGTERM');
    const deadline = performance.now() + graceMs;
    while (this.alive && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (this.alive) this.child.kill('SIGKILL');
  }

  /**
   * The process's counters of 503 answers by cause, from its /metrics: `shed <reason>` (the load
   * shedder) and `save <reason>` (the save batcher). Empty when the process is gone.
   */
  async unavailableCauses(): Promise<Map<string, number>> {
    const causes = new Map<string, number>();
    if (!this.alive) return causes;
    const text = await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) }).then((r) => r.text());
    const counter = /^contest_(http_requests_shed|exam_saves_rejected)_total\{reason="(\w+)"\} (\d+)/gm;
    for (const [, metric, reason, value] of text.matchAll(counter)) {
      if (Number(value) > 0) causes.set(`${metric === 'http_requests_shed' ? 'shed' : 'save'} ${reason}`, Number(value));
    }
    return causes;
  }

  /** Commits of exam saves so far (each batch of saves is one statement and one commit), from its /metrics. */
  async saveCommits(): Promise<number> {
    const text = await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) }).then((r) => r.text());
    return Number(/^contest_exam_save_batch_size_count (\d+)/m.exec(text)?.[1] ?? 0);
  }

  logTail(lines = 15): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).map((line) => `    | ${line.slice(0, 300)}`).join('\n');
    } catch {
      return '    | (no log)';
    }
  }
}
