// Builds the compiled server (dist/server, under a second) once for the run, then the two seeded
// data folders every server of the run is copied from (e2e/servers.ts), before any worker starts.
import { execFileSync } from 'node:child_process';
import { makeTemplates } from './servers';

export default async function globalSetup() {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  await makeTemplates();
}
