// The repository's nginx site (deploy/nginx.conf) run for a benchmark, in front of app processes
// on loopback: every directive as shipped (upstream limits, timeouts, error pages, the access log
// written for each request) except what a private run must change: ports, paths, and the TLS
// listener made a plain one. TLS is left out on purpose: the load generator keeps its connections
// (no handshakes after the first second), and the record cost of a few KB is small next to the
// request itself; the figures say "through nginx, without TLS". scripts/check-nginx.sh runs the
// same file with TLS and HTTP/2 for what it promises.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../chaos/apps';

const SITE = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url));

export interface NginxSite {
  port: number;
  /** nginx's master and worker processes, for CPU accounting. */
  pids(): number[];
  stop(): Promise<void>;
}

/** deploy/nginx.conf for app servers on `appPorts` of loopback, listening on `port` without TLS. */
export function adaptSite(site: string, options: { port: number; redirectPort: number; appPorts: number[]; dir: string }): string {
  const { port, redirectPort, appPorts, dir } = options;
  const adapted = site
    .replace(/^ {4}listen 80;$/m, `    listen 127.0.0.1:${redirectPort};`)
    .replace(/^ {4}listen 443 ssl http2;$/m, `    listen 127.0.0.1:${port} reuseport backlog=65535;`)
    .replace(/^ {4}listen \[::\].*\n/gm, '')
    .replace(/^ {4}ssl_.*\n/gm, '')
    .replace(/^ {4}# server 10\.0\.0\.12:3000.*\n/gm, '')
    // Each upstream's server line, once per app process, with its parameters as shipped.
    .replace(/^( {4}server )127\.0\.0\.1:3000([ ;].*)$/gm, (_line, head: string, tail: string) => appPorts.map((appPort) => `${head}127.0.0.1:${appPort}${tail}`).join('\n'))
    .replaceAll('/var/cache/nginx/reading-contest', join(dir, 'cache'))
    .replaceAll('/var/log/nginx/', `${join(dir, 'logs')}/`)
    .replaceAll('/var/www/letsencrypt', join(dir, 'www'));
  if (adapted.includes('ssl http2') || !adapted.includes(`127.0.0.1:${appPorts[0]} max_fails`)) {
    throw new Error('could not adapt deploy/nginx.conf (its listen or upstream lines changed?)');
  }
  return adapted;
}

/** Starts nginx (Debian: apt-get install nginx-light) with the site in front of `appPorts`; resolves once it answers. */
export async function startNginxSite(appPorts: number[], workers: number): Promise<NginxSite> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  for (const sub of ['logs', 'cache', 'temp', 'www']) mkdirSync(join(dir, sub));
  const port = await freePort();
  const redirectPort = await freePort();
  writeFileSync(join(dir, 'site.conf'), adaptSite(readFileSync(SITE, 'utf8'), { port, redirectPort, appPorts, dir }));
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      `worker_processes ${workers};`,
      'worker_rlimit_nofile 65536;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs', 'error.log')} warn;`,
      process.getuid?.() === 0 ? 'user root;' : '',
      'events { worker_connections 32768; }',
      'http {',
      '    include /etc/nginx/mime.types;',
      '    default_type application/octet-stream;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${join(dir, 'temp', kind)};`),
      `    include ${join(dir, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx did not start: ${stderr.trim() || readFileSync(join(dir, 'logs', 'error.log'), 'utf8').slice(-400)}`);
    const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then((reply) => reply.status === 200, () => false);
    if (answered) break;
    if (Date.now() > deadline) throw new Error('nginx did not answer /healthz within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pids = () => {
    const master = child.pid!;
    const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [master, ...children];
  };
  return {
    port,
    pids,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
