// Bundles the CLI and the library entry each into one file: Node then loads one module instead of
// about two hundred, which takes a third off the CLI's start-up and a quarter off startMock()'s
// in a fresh process (bench/start-in-process.mjs). The library's types stay tsc's (dist/*.d.ts).
import { build } from 'esbuild'
import { cpSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

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

await build({ ...shared, entryPoints: ['dist/cli.js'], outfile: 'dist/novu-mock.mjs' })
// In place: the package's entry is dist/index.js; the modules it bundles stay beside it unused.
await build({
  ...shared,
  entryPoints: ['dist/index.js'],
  outfile: 'dist/index.js',
  allowOverwrite: true,
})

// The dashboard's script and style sheet are served as files: tsc leaves them out of dist/.
cpSync('src/admin/ui/assets', 'dist/admin/ui/assets', { recursive: true })
