import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          exclude: ['src/**/*.api.test.ts'],
          environment: 'node',
          setupFiles: ['./vitest.setup.ts'],
          // A hang's limit, not a speed check: a few tests run poppler and zbar on drawn pages, which
          // took over the default 5 s beside the type check and lint on a fresh clone.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['src/**/*.api.test.ts'],
          environment: 'node',
          setupFiles: ['./vitest.setup.ts'],
          pool: 'forks',
          // One embedded PGlite per worker, shared by the files it runs (each file in its own
          // schema): PGlite takes seconds and ~0.5 GB to start.
          isolate: false,
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
