// Bundles the CLI into one file: Node then loads one module instead of about a hundred, which
// takes a third off the start-up time. The library entry (dist/index.js) stays unbundled.
import { build } from 'esbuild'

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/novu-mock.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Loaded on demand (createRequire, dynamic import): they stay in node_modules.
  external: ['sanitize-html', 'yaml', 'liquidjs', 'jsonrepair', 'pluralize', 'entities'],
  // Bundled CommonJS (handlebars) calls require(); give it Node's.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
})
