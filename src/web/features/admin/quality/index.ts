export { QualityPage } from './quality-page';
