export { DashboardPage } from './dashboard-page';
export { IncidentsPage } from './incidents-page';
