export { PrivacyAdminPage } from './privacy-admin-page';
export { PrivacyRequests } from './privacy-requests';
