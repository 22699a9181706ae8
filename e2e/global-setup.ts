// Builds the compiled server (dist/server, under a second) once for the run, before any worker
// starts its servers (e2e/servers.ts).
import { execFileSync } from 'node:child_process';

export default function globalSetup() {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
}
