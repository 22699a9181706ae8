// Every route of an app, read from Fastify's own route tree. printRoutes nests a route under
// another that is a prefix of it ("│   └── /get-time (GET)"), so each line's path is its
// parents' paths plus its own.
import type { App } from '../app';

export interface RouteOfTree {
  method: string;
  /** Fastify's form: /api/exam/:slug */
  path: string;
}

export function routesOfTree(app: App): RouteOfTree[] {
  const routes: RouteOfTree[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (parents[depth - 1] ?? '') + match[2]!;
    parents[depth] = path;
    parents.length = depth + 1;
    if (!match[3]) continue;
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, path: path.length > 1 ? path.replace(/\/$/, '') : path });
    }
  }
  return routes;
}
