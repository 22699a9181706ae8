// /bao-cao (spec section 2): the school report for a school administrator, otherwise the
// parent's report of each child.
import { messages } from '../../../shared/messages';
import { isSchoolAdmin } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { useRequireAuth } from '../../lib/use-require-auth';
import { ParentReport } from './parent-report';
import { SchoolReport } from './school-report';
import './reports.css';

export function ReportPage() {
  usePageTitle('Báo cáo');
  const session = useRequireAuth(messages.pleaseLogin);
  return <div className="container page report-page">{session && (isSchoolAdmin(session) ? <SchoolReport /> : <ParentReport />)}</div>;
}
