import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';

/** The back office's contest routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminContestRoutes(_admin: Api, _services: Services) {}
