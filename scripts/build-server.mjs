// The production server, compiled ahead of time into dist/server/ (decision 022): esbuild bundles
// src/server/main.ts and the import file worker into one ES module each, the packages left in
// node_modules (imported, not copied), so that production runs plain `node dist/server/main.mjs`
// with no TypeScript loader. The paths the server resolves at run time from its own file
// (import.meta.url) land where they did in src/server: the worker entries and the migrations next
// to main.mjs, ../../dist/web/ the built web app.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/server';
const started = performance.now();
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'file-reader-worker': 'src/server/features/admin/file-reader-worker.ts',
    'screen-worker': 'src/server/features/admin/integrity/screen-worker.ts',
    'xlsx-writer-worker': 'src/server/lib/xlsx-writer-worker.mjs',
  },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', `${OUT}/migrations`, { recursive: true });
console.log(`server built into ${OUT}/ in ${Math.round(performance.now() - started)} ms`);
