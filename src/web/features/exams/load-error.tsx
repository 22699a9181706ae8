import type { ReactNode } from 'react';
import { isExamSlug } from '../../../shared/exam-input';
import { Button } from '../../components/ui/button';
import { Link } from '../../lib/router';
import { retryCanHelp, type DataState } from '../../lib/use-data';

/**
 * An exam or a result that could not be loaded: the message, then 'Thử lại' only where trying
 * again can help (network, 503), otherwise the way back to 'Vào thi'.
 */
export function LoadError({ message, canRetry, onRetry }: { message: string; canRetry: boolean; onRetry: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      <p>{message}</p>
      {canRetry ? (
        <Button variant="outline" onClick={onRetry}>
          Thử lại
        </Button>
      ) : (
        <Link href="/du-thi" className="btn btn-outline">
          Về trang Vào thi
        </Link>
      )}
    </div>
  );
}

/** A result screen's load: the loading line, then the error (with 'Thử lại' where it can help) or the view. */
export function Loaded<T>({ load, loadingText, children }: { load: DataState<T>; loadingText: string; children: (data: T) => ReactNode }) {
  if (load.loading)
    return (
      <p className="muted screen-loading" aria-busy="true">
        {loadingText}
      </p>
    );
  if (load.message) return <LoadError message={load.message} canRetry={retryCanHelp(load.error)} onRetry={load.reload} />;
  return load.data === undefined ? null : children(load.data);
}

/** The slug of a result's address when it can name an exam (the server's own rule), else undefined. */
export const wellFormedSlug = (slug: string | undefined) => (isExamSlug(slug) ? slug : undefined);

/**
 * A result screen (the exam's, the practice round's) at its address: an address that can name no
 * exam is one that does not exist, said in the page's words (`notFound`) with the way back to Vào
 * thi, never in the API's about its parameters; otherwise the result's load.
 */
export function ResultAtAddress<T>({
  slug,
  notFound,
  ...loaded
}: {
  slug: string | undefined;
  notFound: string;
  load: DataState<T>;
  loadingText: string;
  children: (data: T) => ReactNode;
}) {
  if (slug === undefined) return <LoadError message={notFound} canRetry={false} onRetry={() => {}} />;
  return <Loaded {...loaded} />;
}
