// /quan-tri/tai-khoan: find accounts, see one (a parent's contestants and exams), create school
// administrators and the education offices' viewers (one by one or from a spreadsheet), reset
// links, lock and unlock.
import { Route, Switch } from 'wouter';
import { AccountList } from './account-list';
import { AccountDetailPage } from './account-detail';
import { NewSchoolAdminsPage } from './new-school-admins';
import { NewViewersPage } from './new-viewers';
import './accounts.css';

export function AccountsPage() {
  return (
    <Switch>
      <Route path="/" component={AccountList} />
      <Route path="/quan-tri-truong-moi" component={NewSchoolAdminsPage} />
      <Route path="/xem-so-lieu-moi" component={NewViewersPage} />
      <Route path="/:id" component={AccountDetailPage} />
    </Switch>
  );
}
