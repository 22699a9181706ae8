// npm run cli -- create-organiser <phone> <name>: a new organiser account (the back office's
// /quan-tri) and a one-time link to set its password. Refused when the phone has an account.
import { personNameSchema } from '../../shared/schemas/admin-accounts';
import { mobilePhoneSchema } from '../../shared/schemas/auth';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { createOrganiserAccount } from '../features/admin/accounts/service';

export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Returns the exit code; `args` are what follows the command (<phone> <name...>). */
export async function createOrganiserCommand(deps: { db: Db; clock: Clock; publicUrl: string }, args: string[], io: CliOutput): Promise<number> {
  const [phoneArg, ...nameParts] = args;
  const phone = mobilePhoneSchema.safeParse(phoneArg ?? '');
  if (!phone.success) {
    io.err(`Not a mobile phone number (10 digits starting 03, 05, 07, 08 or 09): ${phoneArg ?? '(none)'}\n`);
    return 1;
  }
  // The name may be given with or without quotes: "Nguyễn Văn A" or Nguyễn Văn A.
  const name = personNameSchema.safeParse(nameParts.join(' ').normalize('NFC'));
  if (!name.success) {
    io.err('Give the organiser\'s name after the phone: create-organiser 0912345678 "Nguyễn Văn A"\n');
    return 1;
  }
  try {
    const created = await createOrganiserAccount(deps, { phone: phone.data, name: name.data });
    io.out(`Organiser account ${created.phone} created. Send this one-time link to its owner to set the password:\n${created.url}\nValid until ${created.expiresAt.toISOString()} (single use).\n`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      io.err(`${error.message} (${phone.data}); nothing was changed. For a new password use: npm run cli -- reset-link ${phone.data}\n`);
      return 1;
    }
    throw error;
  }
}
