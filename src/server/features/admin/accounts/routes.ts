import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';

/** The back office's accounts routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminAccountsRoutes(_admin: Api, _services: Services) {}
