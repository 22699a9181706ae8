// /quan-tri: the organiser's back office, its own chunk (families never download it). Logged out,
// it asks for the login in place (the address is kept, so a bookmark of a section works); anyone
// but an organiser gets the not-found screen; the server refuses every /api/admin call as well.
// A session that ends while a page is open (too many logins on a shared account, a logout
// elsewhere) asks for the login again over the page, so that nothing typed is lost.
import { useEffect, useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { LoginFields, useLoginForm } from '../../components/login-fields';
import { NotFoundPage } from '../../components/not-found-page';
import { ReloginDialog } from '../../components/relogin-dialog';
import { Button } from '../../components/ui/button';
import { messages } from '../../../shared/messages';
import type { AuthResponse } from '../../../shared/schemas/auth';
import { api } from '../../lib/api-client';
import { errorMessage, showServerFieldErrors } from '../../lib/server-errors';
import { holdSessionOnEnd, roleOf, setSession, useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { CatalogPage } from './catalog';
import { BooksPage } from './books';
import { AccountsPage } from './accounts';
import { ContestSettingsPage } from './contest';
import { NewsAdminPage } from './news';
import { AuditPage } from './audit';
import { PrivacyAdminPage } from './privacy';
import { RegradesPage } from './regrade';
import { CertificatesAdminPage } from './certificates';
import { DashboardPage, IncidentsPage } from './exam-days';
import { ResultsPage } from './results';
import { IntegrityPage } from './integrity';
import { SessionsPage } from './sessions';
import { SeasonsPage } from './seasons';
import { MessagesPage } from './messages';
import { AdminHome } from './admin-home';
import './admin.css';

/** The back office's sections, in the order of a season: prepare, run the exam days, close. */
export const adminSections = [
  { path: '/danh-muc', label: 'Danh mục trường, lớp', component: CatalogPage },
  { path: '/sach', label: 'Sách và câu hỏi', component: BooksPage },
  { path: '/tai-khoan', label: 'Tài khoản', component: AccountsPage },
  { path: '/cuoc-thi', label: 'Cài đặt cuộc thi', component: ContestSettingsPage },
  { path: '/tin-tuc', label: 'Tin tức', component: NewsAdminPage },
  { path: '/theo-doi', label: 'Theo dõi kỳ thi', component: DashboardPage },
  { path: '/ho-tro', label: 'Hỗ trợ thí sinh', component: IncidentsPage },
  { path: '/cham-lai', label: 'Chấm lại câu hỏi', component: RegradesPage },
  { path: '/kiem-tra-ket-qua', label: 'Kiểm tra kết quả', component: IntegrityPage },
  { path: '/ket-qua', label: 'Kết quả và giải thưởng', component: ResultsPage },
  { path: '/giay-chung-nhan', label: 'Giấy chứng nhận', component: CertificatesAdminPage },
  { path: '/tin-nhan', label: 'Tin nhắn cho phụ huynh', component: MessagesPage },
  { path: '/du-lieu-ca-nhan', label: 'Dữ liệu cá nhân', component: PrivacyAdminPage },
  { path: '/nhat-ky', label: 'Nhật ký thao tác', component: AuditPage },
  { path: '/phien-dang-nhap', label: 'Phiên đăng nhập', component: SessionsPage },
  { path: '/mua-thi', label: 'Mùa thi', component: SeasonsPage },
] as const;

export const adminLoginTexts = {
  title: 'Đăng nhập quản trị',
  text: 'Trang quản trị dành cho Ban tổ chức. Vui lòng đăng nhập bằng tài khoản Ban tổ chức.',
  submit: 'Đăng nhập',
  endedTitle: 'Phiên đăng nhập đã kết thúc',
  endedText:
    'Phiên đăng nhập của bạn đã kết thúc (đăng xuất hoặc đổi mật khẩu ở nơi khác, hoặc tài khoản đã đăng nhập trên quá nhiều thiết bị). Những gì bạn đang nhập vẫn được giữ trên trang này: đăng nhập lại rồi bấm lưu lần nữa.',
  endedSubmit: 'Đăng nhập và làm tiếp',
} as const;

export function AdminApp() {
  const session = useSession();
  if (!session) return <AdminLogin />;
  if (roleOf(session) !== 'organiser') return <NotFoundPage />;
  return <AdminShell phone={session.user.phone} />;
}

function AdminLogin() {
  usePageTitle(adminLoginTexts.title);
  const form = useLoginForm();
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const response = await api.post<AuthResponse>('/login', values);
      setSession(response.access_token, response.user);
    } catch (error) {
      showServerFieldErrors(error, form.setError, ['phone', 'password']);
      setFailure(errorMessage(error) ?? messages.serverError);
    }
  });
  return (
    <section className="admin-login">
      <h1>{adminLoginTexts.title}</h1>
      <p>{adminLoginTexts.text}</p>
      {failure && (
        <p className="alert alert-error" role="alert">
          {messages.loginFailedTitle}. {failure}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <LoginFields form={form} />
        <Button type="submit" block disabled={form.formState.isSubmitting}>
          {adminLoginTexts.submit}
        </Button>
      </form>
    </section>
  );
}

function AdminShell({ phone }: { phone: string }) {
  usePageTitle('Quản trị');
  const [sessionEnded, setSessionEnded] = useState(false);
  useEffect(() => holdSessionOnEnd(() => setSessionEnded(true)), []);
  return (
    <div className="admin-shell">
      <nav className="admin-nav" aria-label="Quản trị">
        <Link href="/" className={(active) => (active ? 'active' : '')}>
          Tổng quan
        </Link>
        {adminSections.map((section) => (
          <Link key={section.path} href={section.path} className={(active) => (active ? 'active' : '')}>
            {section.label}
          </Link>
        ))}
      </nav>
      <div className="admin-content">
        <Switch>
          <Route path="/" component={AdminHome} />
          {adminSections.map((section) => (
            <Route key={section.path} path={section.path} component={section.component} nest />
          ))}
          <Route component={NotFoundPage} />
        </Switch>
      </div>
      {sessionEnded && (
        <ReloginDialog
          title={adminLoginTexts.endedTitle}
          text={adminLoginTexts.endedText}
          submitLabel={adminLoginTexts.endedSubmit}
          phone={phone}
          onLoggedIn={() => setSessionEnded(false)}
        />
      )}
    </div>
  );
}
