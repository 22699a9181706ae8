// A PostgreSQL primary and a streaming standby of it for the read-replica tests: throwaway clusters
// in a temp folder (initdb, then pg_basebackup -R), on free loopback ports, made with the
// machine's PostgreSQL binaries. Not the machine's own server: its pg_hba refuses replication, and
// the tests stop and pause the standby.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Polls `condition` every 100 ms; fails after `seconds` (generous: a busy machine only makes it slower). */
export async function until(condition: () => boolean | Promise<boolean>, what: string, seconds = 30) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still not ${what} after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}


/** The newest installed server's bin folder (Debian's layout), or undefined when there is none. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Runs SQL on the standby as its superuser (e.g. pg_wal_replay_pause()). */
  onReplica(text: string): Promise<pg.QueryResult>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin');
  const dir = mkdtempSync(join(tmpdir(), 'replica-pair-'));
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  // PostgreSQL refuses to run as root: then its commands run as the postgres system user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
    chownSync(dir, uid!, gid!);
    chownSync(sockets, uid!, gid!);
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args], { cwd: dir }) : run(join(bin, name), args, { cwd: dir });
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryData = join(dir, 'primary');
  const replicaData = join(dir, 'replica');
  const serverOptions = (port: number) => `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (data: string, port: number, ...args: string[]) => tool('pg_ctl', ['-D', data, '-l', join(dir, `${port}.log`), '-o', serverOptions(port), ...args]);

  // initdb's pg_hba with -A trust lets replication connections in from loopback.
  await tool('initdb', ['-D', primaryData, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  await pgCtl(primaryData, primaryPort, 'start', '-w', '-t', '30');
  await tool('pg_basebackup', ['-D', replicaData, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-R', '-X', 'stream', '--no-sync']);
  await pgCtl(replicaData, replicaPort, 'start', '-w', '-t', '30');
  let replicaRunning = true;

  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl,
    async onReplica(text) {
      const client = new pg.Client({ connectionString: replicaUrl });
      await client.connect();
      try {
        return await client.query(text);
      } finally {
        await client.end();
      }
    },
    async stopReplica() {
      await pgCtl(replicaData, replicaPort, 'stop', '-m', 'fast', '-w', '-t', '30');
      replicaRunning = false;
    },
    async startReplica() {
      await pgCtl(replicaData, replicaPort, 'start', '-w', '-t', '30');
      replicaRunning = true;
    },
    async stop() {
      if (replicaRunning) await pgCtl(replicaData, replicaPort, 'stop', '-m', 'immediate', '-w').catch(() => {});
      await pgCtl(primaryData, primaryPort, 'stop', '-m', 'immediate', '-w').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
