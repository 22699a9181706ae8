// The operator commands (npm run cli, seed, results:compute, results:demo): the TypeScript source
// through tsx where tsx is installed (a development checkout: always the current code), the
// compiled file in dist/server/ otherwise (a production install, `npm ci && npm run build && npm
// prune --omit=dev`: tsx is a devDependency). Both on the Node running this script: in an npm
// script, the project's own Node 24 (node_modules/.bin/node, decision 032).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const COMMANDS = {
  cli: 'src/server/cli/index.ts',
  seed: 'src/server/cli/seed.ts',
  'compute-results': 'src/server/cli/compute-results.ts',
  'demo-results': 'src/server/cli/demo-results.ts',
};

const [name, ...args] = process.argv.slice(2);
const source = COMMANDS[name];
if (!source) {
  console.error(`Usage: node scripts/server-command.mjs <${Object.keys(COMMANDS).join('|')}> [arguments]`);
  process.exit(2);
}

let hasTsx = true;
try {
  import.meta.resolve('tsx');
} catch {
  hasTsx = false;
}
const compiled = `dist/server/${name}.mjs`;
if (!hasTsx && !existsSync(compiled)) {
  console.error(`${compiled} is missing and tsx is not installed: run npm run build first.`);
  process.exit(1);
}

const child = spawn(process.execPath, hasTsx ? ['--import', 'tsx', source, ...args] : [compiled, ...args], { stdio: 'inherit' });
// Ctrl-C reaches the child too (same process group); a SIGTERM sent to this process alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1);
});
