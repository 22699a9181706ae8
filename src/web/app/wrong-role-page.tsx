// A screen of another role (spec section 6) opened by a logged-in user: one message on a normal
// page, and a way on (home; the school report for a school administrator).
import { messages } from '../../shared/messages';
import { Link } from '../lib/router';
import { roleOf, useSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';
import '../components/not-found.css';

export function WrongRolePage({ reason }: { reason: string }) {
  usePageTitle(messages.wrongRoleTitle);
  const role = roleOf(useSession());
  const note = role === 'school_admin' ? messages.schoolAdminNote : role === 'organiser' ? messages.organiserNote : '';
  return (
    <div className="container page">
      <div className="card not-found wrong-role">
        <h1>{messages.wrongRoleTitle}</h1>
        <p>
          {note} {reason}
        </p>
        <div className="not-found-actions">
          <Link className="btn" href="/">
            Về trang chủ
          </Link>
          {role === 'school_admin' && (
            <Link className="btn btn-outline" href="/bao-cao">
              Xem báo cáo của trường
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}
