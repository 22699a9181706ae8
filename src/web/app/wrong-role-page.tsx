// A screen of another role (spec section 6) opened by a logged-in user: one message on a normal
// page, and a way on (home; the school report for a school administrator, the figures for a viewer).
import { messages } from '../../shared/messages';
import { Link } from '../lib/router';
import { isViewerRole, roleOf, useSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';
import '../components/not-found.css';

export function WrongRolePage({ reason }: { reason: string }) {
  usePageTitle(messages.wrongRoleTitle);
  const role = roleOf(useSession());
  const notes: Partial<Record<NonNullable<typeof role>, string>> = {
    school_admin: messages.schoolAdminNote,
    organiser: messages.organiserNote,
    province_viewer: messages.viewerNote,
    unit_viewer: messages.viewerNote,
  };
  const note = (role && notes[role]) ?? '';
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
          {isViewerRole(role) && (
            <Link className="btn btn-outline" href="/so-giao-duc">
              Xem số liệu
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}
