import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Vitest's default is one worker less than the cores: one worker on a two-core CI machine,
    // which then sits idle while a file waits on npm, a spawned CLI or a socket. Two workers
    // there took `npm test` from 438 to 294 s, every test passing, none near its timeout.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
