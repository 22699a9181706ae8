export { NewsAdminPage } from './news-admin-page';
