export { SeasonsPage } from './seasons-page';
