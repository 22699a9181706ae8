import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { prerenderPages } from './scripts/vite-prerender.ts';

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), prerenderPages()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    manifest: true,
    target: 'es2020',
    // Source maps stay off the phones but are kept for error reports.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // The small modules the home page shares with the lazy screens, in one chunk instead of
        // one each: fewer requests for a phone, and less weight than their separate wrappers.
        codeSplitting: {
          groups: [{ name: 'shared', test: /src[\\/](shared[\\/](messages|rules|errors?-codes)|web[\\/]lib[\\/](session|api-client))\.ts$/ }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
