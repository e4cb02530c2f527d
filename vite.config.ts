import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = `http://localhost:${process.env.BACKEND_PORT ?? '3001'}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Which chunks each page needs: scripts/prerender.mjs reads it to preload them, then deletes it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk: the first load is
          // one request for the app instead of seven (each small chunk cost as much
          // in headers as in code). Decision 033.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    // `npm run dev`: the backend runs beside Vite and answers these paths.
    proxy: {
      '/config.json': backend,
      '/health': backend,
      '/auth/v1': backend,
      '/rest/v1': backend,
      '/storage/v1': backend,
      '/realtime/v1': { target: backend, ws: true },
      '/functions/v1': backend,
    },
  },
});
