// The production server, compiled ahead of time into dist/server/ (decision 022): esbuild bundles
// src/server/main.ts, its worker threads and the operator commands of src/server/cli (npm run
// cli, seed, results:compute, results:demo, through scripts/server-command.mjs) into one ES module
// each, the packages left in node_modules (imported, not copied), so that production runs plain
// `node dist/server/main.mjs` with no TypeScript loader (tsx is a devDependency). The paths the
// server resolves at run time from its own file (import.meta.url) land where they did in
// src/server: the worker entries and the migrations next to main.mjs, ../../dist/web/ the built
// web app.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/server';
const started = performance.now();
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    // Each import file reader's worker (features/admin/kit/file-reader.ts), named as its reader names it.
    'table-file-worker': 'src/server/features/admin/kit/table-file-worker.ts',
    'question-file-worker': 'src/server/features/admin/books/question-file-worker.ts',
    'screen-worker': 'src/server/features/admin/integrity/screen-worker.ts',
    'xlsx-writer-worker': 'src/server/lib/xlsx-writer-worker.mjs',
    // Next to main.mjs, so that their ./migrations/ is the same folder.
    cli: 'src/server/cli/index.ts',
    seed: 'src/server/cli/seed.ts',
    'compute-results': 'src/server/cli/compute-results.ts',
    'demo-results': 'src/server/cli/demo-results.ts',
  },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  // The project's own Node (the npm package node, decision 032).
  target: 'node24',
  sourcemap: 'linked',
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', `${OUT}/migrations`, { recursive: true });
console.log(`server built into ${OUT}/ in ${Math.round(performance.now() - started)} ms`);
