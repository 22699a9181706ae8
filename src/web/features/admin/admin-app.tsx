// /quan-tri: the organiser's back office, its own chunk (families never download it). Anyone but
// an organiser gets the not-found screen; the server refuses every /api/admin call as well.
import { Link, Route, Switch } from 'wouter';
import { NotFoundPage } from '../../components/not-found-page';
import { roleOf, useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { CatalogPage } from './catalog/catalog-page';
import { BooksPage } from './books/books-page';
import { AccountsPage } from './accounts/accounts-page';
import { ContestSettingsPage } from './contest/contest-settings-page';
import { NewsAdminPage } from './news/news-admin-page';
import { AuditPage } from './audit/audit-page';
import { PrivacyAdminPage } from './privacy/privacy-admin-page';
import { RegradesPage } from './regrade/regrades-page';
import { CertificatesAdminPage } from './certificates/certificates-page';
import { DashboardPage } from './exam-days/dashboard-page';
import { IncidentsPage } from './exam-days/incidents-page';
import { ResultsPage } from './results/results-page';
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
  { path: '/ket-qua', label: 'Kết quả và giải thưởng', component: ResultsPage },
  { path: '/giay-chung-nhan', label: 'Giấy chứng nhận', component: CertificatesAdminPage },
  { path: '/du-lieu-ca-nhan', label: 'Dữ liệu cá nhân', component: PrivacyAdminPage },
  { path: '/nhat-ky', label: 'Nhật ký thao tác', component: AuditPage },
] as const;

export function AdminApp() {
  const session = useSession();
  if (roleOf(session) !== 'organiser') return <NotFoundPage />;
  return <AdminShell />;
}

function AdminShell() {
  usePageTitle('Quản trị');
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
    </div>
  );
}
