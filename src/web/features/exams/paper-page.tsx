// What an exam address shows, the contest's exam and the practice round alike: the exam screen
// once the paper is loaded (it stays even if the session goes: the screen asks for a login
// itself); without a session, the site's usual notice and redirect to /dang-nhap; otherwise the
// loading line or the load's error, under the login dialog when the server ended the session.
import { Suspense, type ReactNode } from 'react';
import { useSession } from '../../lib/session';
import { useRequireAuth } from '../../lib/use-require-auth';
import type { ExamBackend } from './exam-backend';
import { ExamScreen } from './exam-screen';
import { LoginDialog } from './lazy-dialogs';
import { LoadError } from './load-error';
import type { usePaperLoad } from './use-paper-load';

function LoginRequired() {
  useRequireAuth();
  return <div className="container page" />;
}

export function PaperPage({
  load,
  backend,
  title,
  loadingText,
  onLoggedIn = load.loggedIn,
}: {
  load: ReturnType<typeof usePaperLoad>;
  /** The calls of the loaded paper (undefined until it is loaded). */
  backend: ExamBackend | undefined;
  title: ReactNode;
  loadingText: string;
  onLoggedIn?: () => void;
}) {
  const session = useSession();
  const { state } = load;
  if (state.kind === 'ready' && backend)
    return (
      <ExamScreen
        key={state.exam.data.writer}
        exam={state.exam}
        initialOffsetMs={state.offsetMs}
        fromDevice={Boolean(state.fromDevice)}
        backend={backend}
        onReload={load.reload}
      />
    );
  if (!session) return <LoginRequired />;
  return (
    <>
      <div className="container page exam-page" inert={load.loginNeeded || undefined}>
        <h1 className="exam-title">{title}</h1>
        {state.kind === 'error' ? (
          <LoadError message={state.message} canRetry={state.retry} onRetry={load.retry} />
        ) : (
          <p className="muted" aria-busy="true">
            {loadingText}
          </p>
        )}
      </div>
      {load.loginNeeded && (
        <Suspense fallback={null}>
          <LoginDialog phone={session.user.phone} onLoggedIn={onLoggedIn} />
        </Suspense>
      )}
    </>
  );
}
