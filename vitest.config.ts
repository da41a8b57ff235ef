import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/test/**/*.test.ts', 'scripts/test/**/*.test.ts', 'renderer/test/**/*.test.ts', 'electron/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Many files wait on
    // child processes (the CLI, model runtimes), so two workers there halve the wall time. Two files then
    // share the cores, so a test's time limit allows for that (a limit catches a hang, it is not a timing).
    maxWorkers: Math.max(2, os.availableParallelism()),
  },
});
