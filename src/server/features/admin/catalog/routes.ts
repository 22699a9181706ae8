import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';

/** The back office's catalog routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminCatalogRoutes(_admin: Api, _services: Services) {}
