export { RegradesPage } from './regrades-page';
export { RegradeDialog } from './regrade-dialog';
