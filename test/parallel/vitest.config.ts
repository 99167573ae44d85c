import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Two test files that run side by side against one mock (NOVU_MOCK_URL), started by
// test/parallel-files.test.ts: two workers, whatever the machine's core count.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['*.check.ts'],
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 30_000,
  },
})
