// The route table of spec section 2. The home page is in the main bundle (it is the landing
// page); every other screen is its own chunk, loaded on first visit. The public pages a visitor
// lands on are also drawn at build time into the HTML the server sends (prerender.tsx), which
// names the screen; the app takes that HTML over once its chunk is here (main.tsx, decision 034).
import { createElement, lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { messages } from '../../shared/messages';
import type { UserRole } from '../../shared/schemas/auth';
import { usePathname } from '../lib/router';
import { roleOf, useSession } from '../lib/session';
import { HomePage } from '../features/home/home-page';

type Page = ComponentType<object> & { preload: () => Promise<unknown> };

/** The screens in their own chunks, by export name (a screen's file's name in PascalCase: rules-page.tsx, RulesPage). */
const screens = new Map<string, Page>();

/**
 * A screen in its own chunk. Once its chunk is loaded (`preload`, or a first visit), it is drawn
 * at once, without suspending: a page taking over the HTML drawn at build time must draw the same.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType<object>>>, name: K): Page {
  let loaded: ComponentType<object> | undefined;
  const preload = () => load().then((module): ComponentType<object> => (loaded = module[name]));
  const Lazy: ComponentType<object> = lazy(async () => ({ default: loaded ?? (await preload()) }));
  const Screen = (props: object) => createElement(loaded ?? Lazy, props);
  const screen = Object.assign(Screen, { preload });
  screens.set(name, screen);
  return screen;
}

// Pages nobody means to open (a wrong address, a screen of another role): off the home bundle too.
const NotFoundPage = page(() => import('../components/not-found-page'), 'NotFoundPage');
const WrongRolePage = lazy(async () => ({ default: (await import('./wrong-role-page')).WrongRolePage }));
const RulesPage = page(() => import('../features/rules/rules-page'), 'RulesPage');
const PrivacyPage = page(() => import('../features/privacy/privacy-page'), 'PrivacyPage');
const NewsListPage = page(() => import('../features/news/news-list-page'), 'NewsListPage');
const NewsArticlePage = page(() => import('../features/news/news-article-page'), 'NewsArticlePage');
const RegisterPage = page(() => import('../features/auth/register-page'), 'RegisterPage'); // PageRegister
const LoginPage = page(() => import('../features/auth/login-page'), 'LoginPage'); // PageLogin
const ForgotPasswordPage = page(() => import('../features/auth/forgot-password-page'), 'ForgotPasswordPage'); // PageForgotPassword
const ChangePasswordPage = page(() => import('../features/auth/change-password-page'), 'ChangePasswordPage');
const TokenChangePasswordPage = page(() => import('../features/auth/token-change-password-page'), 'TokenChangePasswordPage');
const ProfilePage = page(() => import('../features/profile/profile-page'), 'ProfilePage');
const JoinExamPage = page(() => import('../features/exams/join-exam-page'), 'JoinExamPage');
const ExamPage = page(() => import('../features/exams/exam-page'), 'ExamPage');
const ResultPage = page(() => import('../features/exams/result-page'), 'ResultPage');
const PracticePage = page(() => import('../features/exams/practice/practice-page'), 'PracticePage');
const PracticeResultPage = page(() => import('../features/exams/practice/practice-result-page'), 'PracticeResultPage');
const CertificatePage = page(() => import('../features/certificates/certificate-page'), 'CertificatePage');
const VerifyPage = page(() => import('../features/certificates/verify-page'), 'VerifyPage');
const ReportPage = page(() => import('../features/reports/report-page'), 'ReportPage');
const WinnersPage = page(() => import('../features/winners/winners-page'), 'WinnersPage');
const OptOutPage = page(() => import('../features/opt-out/opt-out-page'), 'OptOutPage');
// The organiser's back office: its own chunk, never downloaded by families.
const AdminApp = page(() => import('../features/admin/admin-app'), 'AdminApp');
// The education offices' read-only area (issue 41): its own chunk too.
const ViewerArea = page(() => import('../features/viewers/viewer-area'), 'ViewerArea');

/** Loads the chunk of the screen named (a page drawn at build time names its own), so that it draws without suspending. */
export async function preloadScreen(name: string | undefined): Promise<void> {
  if (name) await screens.get(name)?.preload();
}

/**
 * Screens only some roles may use, by path prefix, with the reason shown to the others. The
 * server refuses these calls too (403, or 404 for exams the account does not own); this table
 * keeps the pages from mounting at all, so the user reads one message on a normal page.
 * Visitors without a session reach the pages, which send them to log in.
 */
const ROLE_ROUTES: { prefix: string; roles: UserRole[]; reason: string }[] = [
  { prefix: '/du-thi', roles: ['parent'], reason: messages.familyOnly },
  { prefix: '/bat-dau-thi', roles: ['parent'], reason: messages.familyOnly },
  { prefix: '/ket-qua-thi', roles: ['parent'], reason: messages.familyOnly },
  { prefix: '/thi-thu', roles: ['parent'], reason: messages.familyOnly },
  { prefix: '/giay-chung-nhan', roles: ['parent'], reason: messages.familyOnly },
  { prefix: '/bao-cao', roles: ['parent', 'school_admin'], reason: messages.reportNotForRole },
  { prefix: '/so-giao-duc', roles: ['province_viewer', 'unit_viewer'], reason: messages.viewerAreaOnly },
  // The profile is a family's (and the staff's own); a viewer has none (the server answers 403 too).
  { prefix: '/tai-khoan', roles: ['parent', 'school_admin', 'organiser'], reason: messages.accountPageNotForViewers },
];

/** Why the logged-in user may not open `pathname`, or null when they may. */
export function useRoleRefusal(pathname: string): string | null {
  const role = roleOf(useSession());
  if (!role) return null;
  const route = ROLE_ROUTES.find(({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  return route && !route.roles.includes(role) ? route.reason : null;
}

function ScrollToTopOnNavigate() {
  const pathname = usePathname();
  // Braces on purpose: recent Chromium returns a Promise from scrollTo, and an effect that
  // returns anything but a clean-up function makes React throw on unmount.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function AppRoutes() {
  const pathname = usePathname();
  const refusal = useRoleRefusal(pathname);
  return (
    <Suspense fallback={<div className="container page page-loading" aria-busy="true" />}>
      <ScrollToTopOnNavigate />
      {refusal ? <WrongRolePage reason={refusal} /> : <RouteSwitch />}
    </Suspense>
  );
}

function RouteSwitch() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/the-le" component={RulesPage} />
      <Route path="/danh-sach-doat-giai" component={WinnersPage} />
      <Route path="/chinh-sach-bao-mat" component={PrivacyPage} />
      <Route path="/tin-tuc" component={NewsListPage} />
      <Route path="/tin-tuc/:slug" component={NewsArticlePage} />
      <Route path="/dang-ky" component={RegisterPage} />
      <Route path="/dang-nhap" component={LoginPage} />
      <Route path="/quen-mat-khau" component={ForgotPasswordPage} />
      <Route path="/doi-mat-khau" component={ChangePasswordPage} />
      <Route path="/doi-mat-khau/:token" component={TokenChangePasswordPage} />
      <Route path="/tai-khoan" component={ProfilePage} />
      <Route path="/du-thi" component={JoinExamPage} />
      {/* Optional parameters: a missing one reaches the page, which sends it to /404. */}
      <Route path="/bat-dau-thi/:bookId?/:childId?/:slugExam?" component={ExamPage} />
      <Route path="/ket-qua-thi/:slugExam" component={ResultPage} />
      {/* The practice round (issue 14): its result first, so that "ket-qua" is never read as a slug. */}
      <Route path="/thi-thu/ket-qua/:slug" component={PracticeResultPage} />
      <Route path="/thi-thu/:slug" component={PracticePage} />
      <Route path="/giay-chung-nhan/:childId" component={CertificatePage} />
      <Route path="/xac-minh/:code" component={VerifyPage} />
      <Route path="/bao-cao" component={ReportPage} />
      <Route path="/bao-cao/" component={ReportPage} />
      <Route path="/tu-choi/:token" component={OptOutPage} />
      <Route path="/quan-tri" component={AdminApp} nest />
      {/* Two addresses, one screen (its tabs): any other address under it is not found. */}
      <Route path="/so-giao-duc" component={ViewerArea} />
      <Route path="/so-giao-duc/ket-qua" component={ViewerArea} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}
