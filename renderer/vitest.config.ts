import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the renderer's store and pure view logic (no DOM needed): `vitest run -c renderer/vitest.config.ts`.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['renderer/test/**/*.test.ts'],
  },
});
