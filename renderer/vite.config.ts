import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));

// The same bundle runs in Electron (file:// or app://) and from `reverie serve`, so asset
// URLs are relative. The CSP allows no inline scripts or styles: Vite emits files for both.
export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react()],
  // The graph layout worker is created with { type: 'module' } (renderer/src/views/graph/layoutOffThread.ts).
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    // The polyfill is only needed for browsers without modulepreload; Chromium has it.
    modulePreload: { polyfill: false },
    sourcemap: false,
    // Loaded from disk or localhost, never over a slow network: one ~500 kB bundle is fine.
    chunkSizeWarningLimit: 1024,
  },
});
