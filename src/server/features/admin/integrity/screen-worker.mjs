// Entry of the screening's worker thread (screen-worker.ts). The TypeScript is loaded through tsx's
// API so that it runs the same under `node --import tsx` and under vitest; the built server has
// dist/server/screen-worker.mjs instead (scripts/build-server.mjs).
import { tsImport } from 'tsx/esm/api';

await tsImport('./screen-worker.ts', import.meta.url);
