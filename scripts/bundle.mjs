// Bundles the CLI and the library entry: Node then loads a few modules instead of about two
// hundred, which takes a third off the CLI's start-up and a quarter off startMock()'s in a fresh
// process (bench/start-in-process.mjs). What only a dynamic import() reaches goes to a chunk of
// its own (dist/chunks/), compiled when first imported. The library's types stay tsc's (dist/*.d.ts).
import { build } from 'esbuild'
import { cpSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { oneByteSources } from './one-byte-sources.mjs'

/**
 * zod re-exports every locale (`z.locales`, 400 kB of the bundle, a fifth of its compile time);
 * the mock uses English alone, which zod registers itself, so the namespace gets English only.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: fileURLToPath(new URL('./zod-locales.mjs', import.meta.url)) }
        : undefined
    )
  },
}

/** The settings both bundles share. */
const shared = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Loaded on demand (createRequire, dynamic import): they stay in node_modules.
  external: [
    'sanitize-html',
    'yaml',
    'liquidjs',
    'jsonrepair',
    'pluralize',
    'entities',
    'slugify',
    '@sindresorhus/slugify',
  ],
  plugins: [englishOnly],
  // Bundled CommonJS (handlebars) calls require(); give it Node's.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
}

// Split: what a dynamic import() reaches only (the dashboard, capture, replay, ...) goes to a
// chunk of its own under dist/chunks/, compiled and run when first imported, not at start.
const split = { splitting: true, outdir: 'dist', chunkNames: 'chunks/[name]-[hash]' }
// Chunks are named by their content: those of an earlier build would stay and ship unused.
rmSync('dist/chunks', { recursive: true, force: true })
await build({
  ...shared,
  ...split,
  entryPoints: { 'novu-mock': 'dist/cli.js' },
  outExtension: { '.js': '.mjs' },
})
// In place: the package's entry is dist/index.js; the modules it bundles stay beside it unused.
await build({
  ...shared,
  ...split,
  entryPoints: { index: 'dist/index.js' },
  allowOverwrite: true,
})

await oneByteSources('dist')

// The dashboard's script and style sheet are served as files: tsc leaves them out of dist/.
cpSync('src/admin/ui/assets', 'dist/admin/ui/assets', { recursive: true })
