export { IntegrityPage } from './integrity-page';
