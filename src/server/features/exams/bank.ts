// The question banks an exam draws from, kept per app process between organiser edits. A start
// reads the banks' version (0022_question_bank_version.sql) with its other checks and uses the
// copy here only if it was read at that version; otherwise the bank is read again, with its
// version, in one statement. So a change committed on any process holds for the next start on
// every process, and the processes stay interchangeable behind a balancer.
import type { Db } from '../../db/client';
import type { DrawnQuestion } from '../../core/paper/rules';
import * as repo from './repo';

export type QuestionBanks = ReturnType<typeof createQuestionBanks>;

export function createQuestionBanks(db: Db) {
  const banks = new Map<number, { version: number; questions: DrawnQuestion[] }>();
  return {
    /** The exam questions of `bookId` (with their answers) as of `version` or later. */
    async of(bookId: number, version: number): Promise<DrawnQuestion[]> {
      const cached = banks.get(bookId);
      if (cached && cached.version === version) return cached.questions;
      const bank = await repo.readBank(db, bookId);
      // Never replace a newer copy by an older one (two starts reading at once).
      if (!cached || bank.version >= cached.version) banks.set(bookId, bank);
      return bank.questions;
    },
  };
}
