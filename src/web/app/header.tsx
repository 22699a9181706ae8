// The site header of spec section 2: a desktop bar, and on narrow screens an off-canvas menu
// with the same menu and the same user dropdown. The off-canvas menu closes after every
// navigation, on Escape and on a tap on the backdrop.
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { ChevronDown, LogOut, Menu, UserRound, X } from '../components/ui/shell-icons';
import { keepTabInside } from '../lib/focus';
import { Link, useNavigate, usePathname } from '../lib/router';
import { clearSession, isViewerRole, roleOf, useSession, type Session } from '../lib/session';
import { forgetPaper } from '../features/exams/kept-paper';
import { api, ApiRequestError } from '../lib/api-client';
import { notify } from '../components/ui/notices';
import { messages } from '../../shared/messages';
import { NOTICE_MS } from '../../shared/rules';
import './header.css';

interface MenuItem {
  href: string;
  label: string;
}

const HOME: MenuItem = { href: '/', label: 'Trang chủ' };
const RULES: MenuItem = { href: '/the-le', label: 'Thể lệ' };
const JOIN: MenuItem = { href: '/du-thi', label: 'Vào thi' };
const REPORT: MenuItem = { href: '/bao-cao', label: 'Báo cáo' };
const NEWS: MenuItem = { href: '/tin-tuc', label: 'Tin tức' };
const ADMIN: MenuItem = { href: '/quan-tri', label: 'Quản trị' };
const OFFICE: MenuItem = { href: '/so-giao-duc', label: 'Số liệu' };

/**
 * Spec section 2 gives visitors and participants Trang chủ, Thể lệ, Vào thi, Tin tức and school
 * administrators Báo cáo instead of Vào thi. Parents also get Báo cáo (their children's report,
 * otherwise reachable from nowhere); the organiser, who takes no exam, gets the public pages and
 * the back office.
 */
function menuFor(session: Session | null): MenuItem[] {
  switch (roleOf(session)) {
    case null:
      return [HOME, RULES, JOIN, NEWS];
    case 'parent':
      return [HOME, RULES, JOIN, REPORT, NEWS];
    case 'school_admin':
      return [HOME, RULES, REPORT, NEWS];
    case 'organiser':
      return [HOME, RULES, NEWS, ADMIN];
    case 'province_viewer':
    case 'unit_viewer':
      return [HOME, RULES, NEWS, OFFICE];
  }
}

const isActive = (href: string, pathname: string) =>
  href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);

function MainMenu({ session, onNavigate }: { session: Session | null; onNavigate?: () => void }) {
  const pathname = usePathname();
  const items = menuFor(session);
  return (
    <ul className="menu">
      {items.map((item) => (
        <li key={item.href}>
          <Link
            href={item.href}
            className={item.href === '/du-thi' ? 'menu-link menu-link-cta' : 'menu-link'}
            aria-current={isActive(item.href, pathname) ? 'page' : undefined}
            onClick={onNavigate}
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function useLogout() {
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await api.post('/logout');
    } catch (error) {
      // 401: the session had already ended on the server, which is what logging out wants.
      if (!(error instanceof ApiRequestError && error.status === 401)) {
        notify('error', messages.logoutFailedTitle, error instanceof Error ? error.message : undefined, NOTICE_MS);
        return;
      }
    }
    clearSession();
    // The exam paper kept on the device for a reload without network is the family's: not left behind.
    forgetPaper('all');
    navigate('/dang-nhap');
    notify('success', messages.logoutSuccess, undefined, NOTICE_MS);
  }, [navigate]);
}

function UserDropdown({ session, onNavigate }: { session: Session; onNavigate?: () => void }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  const logout = useLogout();
  // The phone for parents, the account's name for school administrators (spec) and the organiser.
  const label = roleOf(session) === 'parent' ? session.user.phone : session.user.name || session.user.phone;

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      // Only this dropdown closes; the off-canvas menu around it stays open.
      event.stopPropagation();
      setOpen(false);
      triggerRef.current?.focus();
    }
  };

  const close = () => {
    setOpen(false);
    onNavigate?.();
  };

  return (
    <div className="user-menu" ref={rootRef} onKeyDown={onKeyDown}>
      <button
        ref={triggerRef}
        type="button"
        className="user-menu-trigger"
        title={label}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <UserRound aria-hidden="true" size={20} />
        <span className="user-menu-label">{label}</span>
        <ChevronDown aria-hidden="true" size={18} className="user-menu-chevron" />
      </button>
      <ul id={listId} className="user-menu-list" hidden={!open}>
        <li>
          {/* A viewer has no account page (no family): the password is what it can change. */}
          {isViewerRole(roleOf(session)) ? (
            <Link href="/doi-mat-khau" className="user-menu-item" onClick={close}>
              <UserRound aria-hidden="true" size={18} />
              Đổi mật khẩu
            </Link>
          ) : (
            <Link href="/tai-khoan" className="user-menu-item" onClick={close}>
              <UserRound aria-hidden="true" size={18} />
              Tài khoản
            </Link>
          )}
        </li>
        <li>
          <button
            type="button"
            className="user-menu-item"
            onClick={() => {
              close();
              void logout();
            }}
          >
            <LogOut aria-hidden="true" size={18} />
            Đăng xuất
          </button>
        </li>
      </ul>
    </div>
  );
}

function UserArea({ session, onNavigate }: { session: Session | null; onNavigate?: () => void }) {
  if (session) return <UserDropdown session={session} onNavigate={onNavigate} />;
  return (
    <div className="auth-links">
      <Link href="/dang-ky" className="btn btn-outline" onClick={onNavigate}>
        Đăng ký
      </Link>
      <Link href="/dang-nhap" className="btn" onClick={onNavigate}>
        Đăng nhập
      </Link>
    </div>
  );
}

export function Header() {
  const session = useSession();
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const burgerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const closeMenuAndRefocus = useCallback(() => {
    setMenuOpen(false);
    burgerRef.current?.focus();
  }, []);

  // Any route change closes the menu (links inside it also close it on click, so that a tap
  // on the current page's own link closes it as well).
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    closeButtonRef.current?.focus();
    document.body.classList.add('has-offcanvas');
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMenuAndRefocus();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('has-offcanvas');
      document.removeEventListener('keydown', onKey);
    };
  }, [menuOpen, closeMenuAndRefocus]);

  // Keeps Tab inside the open panel (it is a modal dialog).
  const trapFocus = (event: ReactKeyboardEvent) => {
    if (panelRef.current) keepTabInside(event, panelRef.current);
  };

  return (
    <header className="site-header">
      <div className="container header-bar">
        <Link href="/" className="header-logo">
          <img src="/images/logo.svg" width="150" height="50" alt="Cuộc thi Đại sứ Văn hoá đọc – Trang chủ" />
        </Link>
        <nav className="header-nav" aria-label="Menu chính">
          <MainMenu session={session} />
        </nav>
        <div className="header-user">
          <UserArea session={session} />
        </div>
        <button
          ref={burgerRef}
          type="button"
          className="header-burger"
          aria-expanded={menuOpen}
          aria-controls={panelId}
          aria-label="Mở menu"
          onClick={() => setMenuOpen(true)}
        >
          <Menu aria-hidden="true" size={26} />
        </button>
      </div>

      <div className={menuOpen ? 'offcanvas offcanvas-open' : 'offcanvas'} inert={!menuOpen}>
        <div className="offcanvas-backdrop" onClick={closeMenuAndRefocus} aria-hidden="true" />
        <div
          id={panelId}
          ref={panelRef}
          className="offcanvas-panel"
          role="dialog"
          aria-modal="true"
          aria-label="Menu"
          onKeyDown={trapFocus}
        >
          <div className="offcanvas-head">
            <img className="offcanvas-logo" src="/images/logo.svg" width="150" height="50" alt="" />
            <button ref={closeButtonRef} type="button" className="offcanvas-close" aria-label="Đóng menu" onClick={closeMenuAndRefocus}>
              <X aria-hidden="true" size={26} />
            </button>
          </div>
          <nav aria-label="Menu di động">
            <MainMenu session={session} onNavigate={closeMenu} />
          </nav>
          <div className="offcanvas-user">
            <UserArea session={session} onNavigate={closeMenu} />
          </div>
        </div>
      </div>
    </header>
  );
}
