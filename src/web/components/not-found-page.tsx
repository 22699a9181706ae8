import { Link } from '../lib/router';
import { messages } from '../../shared/messages';
import { usePageTitle } from '../lib/use-page-title';
import './not-found.css';

export function NotFoundPage() {
  usePageTitle(messages.notFoundTitle);
  return (
    <div className="container page">
      <div className="card not-found">
        <svg className="not-found-art" viewBox="0 0 160 110" width="160" height="110" aria-hidden="true" focusable="false">
          <ellipse cx="80" cy="100" rx="62" ry="7" fill="#e3f1f2" />
          <path d="M80 26c-14-9-34-11-56-8v70c22-3 42-1 56 8z" fill="#fff" stroke="#0d5c63" strokeWidth="4" strokeLinejoin="round" />
          <path d="M80 26c14-9 34-11 56-8v70c-22-3-42-1-56 8z" fill="#fff" stroke="#0d5c63" strokeWidth="4" strokeLinejoin="round" />
          <path d="M80 26v70" stroke="#0d5c63" strokeWidth="4" />
          <path d="M36 40h30M36 52h30M36 64h22M94 40h30M94 52h30M94 64h22" stroke="#cfdadc" strokeWidth="4" strokeLinecap="round" />
          <text x="80" y="20" textAnchor="middle" fontSize="22" fontWeight="700" fill="#e0662b">?</text>
        </svg>
        <h1>{messages.notFoundTitle}</h1>
        <p>{messages.notFoundText}</p>
        <div className="not-found-actions">
          <Link className="btn" href="/">
            Về trang chủ
          </Link>
          <Link className="btn btn-outline" href="/tin-tuc">
            Xem tin tức
          </Link>
        </div>
      </div>
    </div>
  );
}
