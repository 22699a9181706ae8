import { NoticeStack } from '../components/ui/notices';
import { usePathname } from '../lib/router';
import { Header } from './header';
import { Footer } from './footer';
import { AppRoutes, useRoleRefusal } from './routes';
import './layout.css';

/** During an exam the child sees only the exam: no menu to wander off through, no footer. */
const isExamScreen = (pathname: string) =>
  pathname.startsWith('/bat-dau-thi') ||
  // The practice round's screen is the exam's; its result page is a normal page.
  (pathname.startsWith('/thi-thu/') && !pathname.startsWith('/thi-thu/ket-qua'));

function ExamHeader() {
  return (
    <header className="site-header">
      <div className="container header-bar">
        <span className="header-logo">
          <img src="/images/logo.svg" width="150" height="50" alt="Cuộc thi Đại sứ Văn hoá đọc" />
        </span>
      </div>
    </header>
  );
}

export function Layout() {
  const pathname = usePathname();
  // An exam link opened by a school administrator or the organiser is a normal page with a message.
  const refused = useRoleRefusal(pathname) !== null;
  const examScreen = isExamScreen(pathname) && !refused;
  return (
    <div className="app-shell">
      <a className="visually-hidden" href="#main">
        Bỏ qua đến nội dung chính
      </a>
      {examScreen ? <ExamHeader /> : <Header />}
      <main id="main">
        <AppRoutes />
      </main>
      {!examScreen && <Footer />}
      <NoticeStack />
    </div>
  );
}
