import { defineConfig } from 'vitest/config'

// The dashboard's tests in headless Chromium (Debian's `chromium`, driven by playwright-core):
// `npm run test:browser`. Kept out of `npm test`, which runs without a browser.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One browser at a time: the machine is shared.
    fileParallelism: false,
  },
})
