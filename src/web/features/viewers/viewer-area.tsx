// /so-giao-duc: the education offices' read-only area (issue 41). A province viewer (the Department
// of Education) sees the whole province, a unit viewer its units: the heading names the scope and
// the season, and two tabs show the live participation (/so-giao-duc) and, once published, the
// results (/so-giao-duc/ket-qua). Nothing here changes anything: every call is a GET of
// /api/viewer/*, which answers for the viewer's scope only. Other roles never mount it (routes.tsx
// ROLE_ROUTES); a visitor is sent to log in.
import { messages } from '../../../shared/messages';
import type { ViewerScope } from '../../../shared/schemas/viewers';
import { Loading } from '../../components/ui/loading';
import { Link, usePathname } from '../../lib/router';
import { useApiData } from '../../lib/use-data';
import { usePageTitle } from '../../lib/use-page-title';
import { useRequireAuth } from '../../lib/use-require-auth';
import { ParticipationTab } from './participation-tab';
import { ResultsTab } from './results-tab';
import './viewers.css';

const TABS = [
  { href: '/so-giao-duc', label: 'Tham gia' },
  { href: '/so-giao-duc/ket-qua', label: 'Kết quả' },
] as const;

export function ViewerArea() {
  const session = useRequireAuth(messages.pleaseLogin);
  const pathname = usePathname();
  const onResults = pathname === '/so-giao-duc/ket-qua';
  usePageTitle(onResults ? 'Số liệu: kết quả' : 'Số liệu: tham gia');
  const scope = useApiData<ViewerScope>(session ? '/viewer/scope' : null);

  return (
    <div className="container page viewer-area">
      <h1>Số liệu cuộc thi</h1>
      {/* A window tall from the first paint: what loads draws into reserved space (no layout shift). */}
      <div className="viewer-body">
        {scope.message && <p role="alert">{scope.message}</p>}
        {!scope.data ? (
          !scope.message && <Loading />
        ) : (
          <>
            <p className="viewer-scope">
              <span>
                Phạm vi: <strong>{scope.data.label}</strong>
              </span>
              <span>Mùa thi: {scope.data.season}</span>
            </p>
            <nav className="tabs viewer-tabs" aria-label="Số liệu">
              {TABS.map((tab) => (
                <Link key={tab.href} href={tab.href} className="tab" aria-current={pathname === tab.href ? 'page' : undefined}>
                  {tab.label}
                </Link>
              ))}
            </nav>
            {onResults ? <ResultsTab scope={scope.data} /> : <ParticipationTab scope={scope.data} />}
          </>
        )}
      </div>
    </div>
  );
}
