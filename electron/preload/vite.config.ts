import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The sandboxed preload can `require` only a few built-ins (electron among them): bundle the
// contract and zod into one CommonJS file and leave only `electron` external.
export default defineConfig({
  build: {
    lib: { entry: fileURLToPath(new URL('./preload.ts', import.meta.url)), formats: ['cjs'], fileName: () => 'preload.cjs' },
    outDir: fileURLToPath(new URL('../../out/electron/preload', import.meta.url)),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    target: 'chrome140',
    rollupOptions: { external: ['electron'] },
  },
});
