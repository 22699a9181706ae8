import type { Services } from '../../app';
import type { Api } from '../../lib/api';

export function registerCertificateRoutes(_api: Api, _services: Services) {}
