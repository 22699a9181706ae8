// npm run cli -- <command>
//   reset-link <phone> [--hours N]   print a one-time password link /doi-mat-khau/{token}
//   create-organiser <phone> <name>  create an organiser account and print its set-password link
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase, type Db } from '../db/client';
import { migrate } from '../db/migrate';
import { AppError } from '../lib/errors';
import { systemClock } from '../lib/clock';
import { issueResetLink, RESET_LINK_DEFAULT_HOURS } from '../features/auth/reset-links';
import { normalisePhone } from '../../shared/schemas/auth';
import { LOGIN_PHONE_PATTERN } from '../../shared/rules';
import { createOrganiserCommand } from './create-organiser';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  reset-link <phone> [--hours N]   Print a one-time link to set a new password for the account of
                                   <phone> (valid ${RESET_LINK_DEFAULT_HOURS} hours unless --hours is given).
  create-organiser <phone> <name>  Create an organiser account (the back office, /quan-tri) and print a
                                   one-time link to set its password. Refused if the phone has an account.

With the embedded database (no DATABASE_URL), stop the server first: PGlite files can be
opened by one process at a time.
`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { hours: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 1;
  }
  if (command === 'create-organiser') return withDatabase((deps) => createOrganiserCommand(deps, rest, io));
  if (command !== 'reset-link') {
    process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`);
    return 1;
  }
  const phone = normalisePhone(rest[0] ?? '');
  if (!LOGIN_PHONE_PATTERN.test(phone)) {
    process.stderr.write(`Not a phone number: ${rest[0] ?? '(none)'}\n`);
    return 1;
  }
  const hours = values.hours === undefined ? RESET_LINK_DEFAULT_HOURS : Number(values.hours);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 30) {
    process.stderr.write('--hours must be a number of hours between 0 and 720\n');
    return 1;
  }

  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database.db);
    const link = await issueResetLink({ db: database.db, clock: systemClock, publicUrl: config.publicUrl }, phone, hours);
    process.stdout.write(`${link.url}\nValid until ${link.expiresAt.toISOString()} (single use).\n`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

const io = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };

/** Opens and migrates the configured database for one command. */
async function withDatabase(run: (deps: { db: Db; clock: typeof systemClock; publicUrl: string }) => Promise<number>): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database.db);
    return await run({ db: database.db, clock: systemClock, publicUrl: config.publicUrl });
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
