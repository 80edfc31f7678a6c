// Builds the shop's booking page (Preact and the ALTCHA widget, nothing else) into booking-page/dist,
// served by the API at /book/{slug} (the HTML) and /book/assets/* (hashed, compressed). public/ holds
// embed.js and favicon.ico, copied as they are.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/book/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or modulepreload polyfill: the page runs under script-src 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  // The ALTCHA widget's proof-of-work runs in module workers, emitted as files of their own.
  worker: { format: 'es' },
  logLevel: 'warn',
});
