import type { Services } from '../../app';
import type { Api } from '../../lib/api';

export function registerExamRoutes(_api: Api, _services: Services) {}
