// The exam screen's rare dialogs, each its own chunk: the login over a running exam (a session
// ended elsewhere) brings the form library, so neither is on the way to the first question; both
// are fetched once the exam is on screen (prefetchExamDialogs) so that they are there when needed.
import { lazy } from 'react';

const loadLoginDialog = () => import('./exam-login-dialog');
export const LoginDialog = lazy(async () => ({ default: (await loadLoginDialog()).ExamLoginDialog }));

const loadElsewhereDialog = () => import('./exam-elsewhere-dialog');
export const ElsewhereDialog = lazy(async () => ({ default: (await loadElsewhereDialog()).ExamElsewhereDialog }));

export function prefetchExamDialogs() {
  void loadLoginDialog().catch(() => undefined);
  void loadElsewhereDialog().catch(() => undefined);
}
