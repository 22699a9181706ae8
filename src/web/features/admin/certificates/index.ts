export { CertificatesAdminPage } from './certificates-page';
