import { NoticeStack } from '../components/ui/notices';
import { Header } from './header';
import { Footer } from './footer';
import { AppRoutes } from './routes';

export function Layout() {
  return (
    <div className="app-shell">
      <a className="visually-hidden" href="#main">
        Bỏ qua đến nội dung chính
      </a>
      <Header />
      <main id="main">
        <AppRoutes />
      </main>
      <Footer />
      <NoticeStack />
    </div>
  );
}
