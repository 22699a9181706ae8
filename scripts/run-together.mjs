// Runs several commands at the same time and prints each one's output whole when it ends (not
// interleaved), with its time; exits with the first failure's status once all have ended. Used by
// `npm test` for the checks that do not depend on one another (issue 39: the test loop).
//
//   node scripts/run-together.mjs "npm run typecheck" "npm run lint" ...
//
// A command is run by the shell; an environment for one command alone is written before it
// (`TEST_DATABASE_URL= npx vitest ...`), as in a shell.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('run-together: no command given');
  process.exit(2);
}

const started = Date.now();
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const at = Date.now();
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - at) / 1000).toFixed(1);
          const status = code ?? (signal ? 1 : 0);
          process.stdout.write(`\n=== ${command} (${seconds} s, ${status === 0 ? 'passed' : `failed: ${signal ?? `exit ${code}`}`}) ===\n`);
          process.stdout.write(Buffer.concat(output));
          resolve(status);
        });
      }),
  ),
);
const failed = results.find((status) => status !== 0);
console.log(`\n=== ${commands.length} commands together in ${((Date.now() - started) / 1000).toFixed(1)} s${failed === undefined ? '' : ': one failed'} ===`);
process.exit(failed ?? 0);
