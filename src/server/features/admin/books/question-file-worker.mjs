// Entry of the worker thread that reads one question file (question-file-worker.ts). The
// TypeScript is loaded through tsx's API so that it runs the same under `node --import tsx` and
// under vitest; the built server has dist/server/question-file-worker.mjs instead (scripts/build-server.mjs).
import { tsImport } from 'tsx/esm/api';

await tsImport('./question-file-worker.ts', import.meta.url);
