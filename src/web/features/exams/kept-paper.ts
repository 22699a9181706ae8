// The paper on screen kept on the device (issue 24.8): its questions and answers' text, the
// deadline, the writer handle and the clock offset of its load, so that a reload without network
// (the shell from the service worker, public/sw.js) can show the exam again; the answers themselves
// are the answer store's copy (answer-store.ts). One paper at a time, for the account that loaded
// it; forgotten when the paper ends (submitted, gone) and at logout.
import type { ExamingResponse } from '../../../shared/schemas/exams';

const KEY = 'exam-paper';

interface KeptPaper {
  v: 1;
  /** What names the paper at its address (usePaperLoad's key). */
  paperKey: string;
  userId: number;
  exam: ExamingResponse;
  offsetMs: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function keepPaper(paperKey: string, userId: number, exam: ExamingResponse, offsetMs: number) {
  const kept: KeptPaper = { v: 1, paperKey, userId, exam, offsetMs };
  try {
    storage()?.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or disabled: a reload without network shows the load error, as before.
  }
}

/** The paper kept for this address and account, if any. */
export function keptPaper(paperKey: string, userId: number): { exam: ExamingResponse; offsetMs: number } | undefined {
  try {
    const kept = JSON.parse(storage()?.getItem(KEY) ?? 'null') as KeptPaper | null;
    if (kept?.v !== 1 || kept.paperKey !== paperKey || kept.userId !== userId || typeof kept.exam?.data?.slug !== 'string') return undefined;
    return { exam: kept.exam, offsetMs: Number(kept.offsetMs) || 0 };
  } catch {
    return undefined;
  }
}

/** The paper ended (by its slug or its address), or the parent logged out ('all'). */
export function forgetPaper(which: { slug: string } | { paperKey: string } | 'all') {
  try {
    const text = storage()?.getItem(KEY);
    if (!text) return;
    const kept = JSON.parse(text) as KeptPaper;
    const matches = which === 'all' || ('slug' in which ? kept.exam?.data?.slug === which.slug : kept.paperKey === which.paperKey);
    if (matches) storage()?.removeItem(KEY);
  } catch {
    storage()?.removeItem(KEY);
  }
}
