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
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
