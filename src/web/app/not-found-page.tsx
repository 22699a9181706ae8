import { Link } from '../lib/router';
import { messages } from '../../shared/messages';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle(messages.notFoundTitle);
  return (
    <div className="container page">
      <div className="card" style={{ textAlign: 'center' }}>
        <h1>{messages.notFoundTitle}</h1>
        <p>{messages.notFoundText}</p>
        <Link className="btn" href="/">
          Về trang chủ
        </Link>
      </div>
    </div>
  );
}
