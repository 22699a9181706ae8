// A private PgBouncer for the failover drill (transaction pooling, as docs/deployment.md section 8
// runs it), in a folder of its own on a free loopback port, in front of one database of the drill's
// primary. repoint() is the failover step: the [databases] entry rewritten to the promoted standby,
// then a reload (SIGHUP, what `systemctl reload pgbouncer` sends; the same as RELOAD on the admin
// console, without a connection to open in the middle of the outage); the app's connections to
// PgBouncer stay open throughout.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export interface PgBouncer {
  port: number;
  version: string;
  /** 1.21+ keeps named prepared statements in transaction pooling; before, the app runs with DATABASE_NAMED_STATEMENTS=0. */
  namedStatements: boolean;
  urlOf(database: string): string;
  /** Sends `database` to the server on `serverPort` from now on: new ini, reload. */
  repoint(serverPort: number): void;
  /** Ends it; safe to call twice and from an exit handler (synchronous). */
  stopNow(): void;
  logTail(lines?: number): string;
}

export function pgbouncerVersion(): string | undefined {
  try {
    return execFileSync('pgbouncer', ['--version'], { encoding: 'utf8' }).split('\n')[0]!.split(' ')[1];
  } catch {
    return undefined;
  }
}

export async function startPgBouncer(dir: string, port: number, database: string, serverPort: number): Promise<PgBouncer> {
  const version = pgbouncerVersion();
  if (!version) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer)');
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const namedStatements = major > 1 || (major === 1 && minor >= 21);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755); // run as root, PgBouncer drops to 'nobody', which must read its files
  const ini = join(dir, 'pgbouncer.ini');
  const logFile = join(dir, 'pgbouncer.log');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  const write = (to: number) =>
    writeFileSync(
      ini,
      `[databases]
${database} = host=127.0.0.1 port=${to} dbname=${database}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
admin_users = postgres
pool_mode = transaction
; fewer server connections than the two app processes' 20, as in production
default_pool_size = 10
max_client_conn = 200
query_wait_timeout = 10
; after a refused connection PgBouncer waits this long before the next try (15 s by default)
server_login_retry = 1
server_connect_timeout = 3
ignore_startup_parameters = extra_float_digits
${namedStatements ? 'max_prepared_statements = 200\n' : ''}`,
    );
  write(serverPort);
  const log = openSync(logFile, 'a');
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn('pgbouncer', [...(asRoot ? ['-u', 'nobody'] : []), ini], { stdio: ['ignore', log, log] });
  closeSync(log);
  let exited = false;
  child.once('exit', () => (exited = true));

  const admin = async (command: string) => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer` });
    await client.connect();
    try {
      await client.query(command);
    } finally {
      await client.end();
    }
  };
  const logTail = (lines = 10) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');

  for (let tries = 0; ; tries++) {
    if (exited) throw new Error(`pgbouncer exited at start:\n${logTail()}`);
    try {
      await admin('SHOW VERSION');
      break;
    } catch (error) {
      if (tries > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    port,
    version,
    namedStatements,
    urlOf: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    repoint(to) {
      write(to);
      child.kill('SIGHUP');
    },
    stopNow() {
      if (!exited) child.kill('SIGKILL');
      exited = true;
    },
    logTail,
  };
}
