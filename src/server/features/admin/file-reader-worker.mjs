// Entry of the worker thread that reads one import file (file-reader-worker.ts). The TypeScript is
// loaded through tsx's API so that it runs the same under `node --import tsx` and under vitest.
import { tsImport } from 'tsx/esm/api';

await tsImport('./file-reader-worker.ts', import.meta.url);
