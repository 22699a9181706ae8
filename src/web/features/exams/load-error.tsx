import { Button } from '../../components/ui/button';
import { Link } from '../../lib/router';

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
