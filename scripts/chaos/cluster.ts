// A throwaway PostgreSQL cluster for `npm run chaos`: initdb into a temp dir with the installed
// server's binaries, listening on a free loopback port, so that the chaos run can restart it and
// terminate its backends without touching the machine's own server (others' tests use it). The
// failover drill also makes a streaming standby of one (pg_basebackup -R) and kills a primary the
// way a dying machine ends it.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const execFileAsync = promisify(execFile);

/** The newest installed server's bin directory (Debian layout; pg_config --bindir may be absent). */
function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions[0]) return join(root, versions[0], 'bin');
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no PostgreSQL server binaries found (looked in /usr/lib/postgresql/*/bin and pg_config --bindir)');
  }
}

export interface Cluster {
  port: number;
  version: string;
  urlOf(database: string): string;
  /** The same database over the cluster's Unix socket (no TCP stack: what an app on the same machine would use). */
  socketUrlOf(database: string): string;
  /** Stops the server (fast: sessions are ended), waits `downMs`, starts it again; returns when it accepts connections. */
  restart(downMs: number): Promise<{ stoppedAt: number; startedAt: number }>;
  /** Terminates the idle backends connected to `database` (the app's pooled connections); returns how many. */
  terminateIdle(database: string): Promise<number>;
  createDatabase(name: string): Promise<void>;
  /** Stops the server at once; safe to call twice and from an exit handler (synchronous). */
  stopNow(): void;
  /**
   * The machine dies: every process of the server is killed (SIGKILL) at once, with no shutdown of
   * any kind (harder than `pg_ctl stop -m immediate`, whose postmaster still tells its children).
   */
  crash(): void;
}

/** Where a standby streams from: `walPort` is the primary's port or a link in between (see wal-link.ts). */
export interface StandbyOf {
  primaryPort: number;
  walPort: number;
  /** Its application_name, which synchronous_standby_names on the primary names. */
  name: string;
}

/**
 * `settings`: more server settings, `name=value` each (the exam-day benchmark loads pg_stat_statements).
 * `standbyOf`: a standby of that primary (pg_basebackup -R) instead of a new cluster (initdb).
 */
export async function startCluster(dir: string, port: number, settings: string[] = [], standbyOf?: StandbyOf): Promise<Cluster> {
  const bin = findBinDir();
  const data = join(dir, 'pgdata');
  const sockets = join(dir, 'sockets');
  const log = join(dir, 'postgres.log');
  mkdirSync(sockets);
  // PostgreSQL refuses to run as root: then its commands run as the postgres system user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chownSync(sockets, uid, gid);
  }
  const commandOf = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  // Asynchronous: the contestants' load runs in this process and must go on while pg_ctl waits.
  const run = async (tool: string, args: string[]) => {
    const [command, fullArgs] = commandOf(tool, args);
    try {
      await execFileAsync(command, fullArgs, { cwd: dir, timeout: 60_000 });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args[0] ?? ''} failed: ${stderr || stdout || String(error)}`, { cause: error });
    }
  };
  const options = [`-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c max_connections=100`, ...settings.map((setting) => `-c ${setting}`)].join(' ');
  const ctlArgs = (...args: string[]) => ['-D', data, '-l', log, '-o', options, ...args];
  const pgCtl = (...args: string[]) => run('pg_ctl', ctlArgs(...args));

  if (standbyOf) {
    // A copy of the primary that streams its WAL from then on (standby.signal and primary_conninfo
    // written by -R); the conninfo is then replaced to name the standby and the way WAL comes.
    await run('pg_basebackup', ['-D', data, '-h', '127.0.0.1', '-p', String(standbyOf.primaryPort), '-U', 'postgres', '-X', 'stream', '-R', '-c', 'fast', '--no-sync']);
    appendFileSync(
      join(data, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${standbyOf.walPort} user=postgres application_name=${standbyOf.name}'\n`,
    );
  } else {
    await run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  }
  await pgCtl('start', '-w', '-t', '30');
  let running = true;

  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const withAdmin = async <T>(database: string, fn: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  const version = await withAdmin('postgres', async (c) => (await c.query('SHOW server_version')).rows[0].server_version as string);

  return {
    port,
    version,
    urlOf,
    socketUrlOf: (database) => `postgres://postgres@${encodeURIComponent(sockets)}:${port}/${database}`,
    async restart(downMs) {
      const stoppedAt = performance.now();
      await pgCtl('stop', '-m', 'fast', '-w', '-t', '30');
      running = false;
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await pgCtl('start', '-w', '-t', '30');
      running = true;
      return { stoppedAt, startedAt: performance.now() };
    },
    terminateIdle: (database) =>
      withAdmin('postgres', async (c) => {
        const { rows } = await c.query(
          `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
           WHERE datname = $1 AND state = 'idle' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
          [database],
        );
        return rows.filter((row) => row.done).length;
      }),
    createDatabase: (name) => withAdmin('postgres', async (c) => void (await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`))),
    stopNow() {
      if (!running) return;
      running = false;
      const [command, args] = commandOf('pg_ctl', ['-D', data, 'stop', '-m', 'immediate', '-w', '-t', '30']);
      spawnSync(command, args, { cwd: dir, stdio: 'ignore' });
    },
    crash() {
      // The postmaster is frozen first (it forks no child then), its children read from /proc
      // (no command to wait for meanwhile), and all are killed: the backends stop within a
      // millisecond, as the connections of a dead machine do (the kernel closes their sockets).
      const pidFile = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n');
      const postmaster = Number(pidFile[0]);
      process.kill(postmaster, 'SIGSTOP');
      const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).map(Number);
      for (const pid of [...children, postmaster]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      running = false;
      // Its small System V segment (key and id on the pid file's 7th line) would outlive the temp dir.
      const shmid = pidFile[6]?.trim().split(/\s+/)[1];
      if (shmid) spawnSync('ipcrm', ['-m', shmid], { stdio: 'ignore' });
    },
  };
}
