// Side menu of the account pages (spec section 2): /tai-khoan, /doi-mat-khau and, for
// participants only, /du-thi.
import { Link, usePathname } from '../lib/router';
import { isViewerRole, mayTakeExams, roleOf, useSession } from '../lib/session';

export function AccountSideMenu({ showExamLink }: { showExamLink?: boolean }) {
  const session = useSession();
  const pathname = usePathname();
  const items = [
    // A viewer has no account page (no family): its own page is the figures.
    isViewerRole(roleOf(session)) ? { href: '/so-giao-duc', label: 'Số liệu' } : { href: '/tai-khoan', label: 'Tài khoản' },
    { href: '/doi-mat-khau', label: 'Đổi mật khẩu' },
    ...((showExamLink ?? mayTakeExams(session)) ? [{ href: '/du-thi', label: 'Vào thi' }] : []),
  ];
  return (
    <nav className="side-menu" aria-label="Tài khoản">
      {items.map((item) => (
        <Link key={item.href} href={item.href} aria-current={pathname === item.href ? 'page' : undefined}>
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
