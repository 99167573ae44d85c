// Bundles the CLI and the library entry: Node then loads one file instead of about two hundred
// modules, which takes a third off the CLI's start-up and a quarter off startMock()'s in a fresh
// process (bench/start-in-process.mjs); run through V8's code cache (src/code-cache.ts), a
// further quarter once the cache is written. The library's types stay tsc's (dist/*.d.ts).
import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Script } from 'node:vm'
import { escapeChar, oneByteSources } from './one-byte-sources.mjs'

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

/**
 * faker's English locale is three quarters data the mock never reads (airlines, music, vehicles...),
 * compiled, kept in the code cache and built into objects at every start that seeds data. The
 * bundle's copy holds the definitions the seeded faker keeps (src/fixtures/faker-definitions.ts),
 * taken from the installed package at build time: the same arrays, so the same picks.
 */
const fakerEnglishUsed = {
  name: 'faker-english-used',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/en-[\w-]+\.js$/ }, (args) =>
      /[\\/]@faker-js[\\/]faker[\\/]dist[\\/]locale[\\/]en\.js$/.test(args.importer)
        ? {
            path: 'en.js',
            namespace: 'faker-english',
            pluginData: new URL(args.path, pathToFileURL(args.importer)).href,
          }
        : undefined
    )
    build.onLoad({ filter: /.*/, namespace: 'faker-english' }, async (args) => {
      const { usedDefinitions } = await import('../dist/fixtures/faker-definitions.js')
      const chunk = await import(args.pluginData)
      const contents = Object.entries(chunk)
        .map(([name, value]) => {
          const used = JSON.stringify(usedDefinitions(value))
          return `export const ${name} = JSON.parse(${JSON.stringify(used)})\n`
        })
        .join('')
      return { contents, loader: 'js' }
    })
  },
}

/** Node's CommonJS wrapper, around the text of each bundle (see below). */
const MODULE_WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n})']

/** A wrapped bundle's exports, as src/code-cache.ts gets them. */
function evaluated(bundle) {
  const filename = resolve(bundle)
  const module = { exports: {} }
  const run = new Script(readFileSync(filename, 'latin1'), { filename }).runInThisContext()
  run(module.exports, createRequire(filename), module, filename, dirname(filename))
  return module.exports
}

/** The settings both bundles share. */
const shared = {
  bundle: true,
  platform: 'node',
  // CommonJS, one file each: src/code-cache.ts runs it with vm.Script, which takes scripts alone,
  // to give V8 the bytecode an earlier start compiled (what import() reached is in it, compiled
  // when first called). ASCII, so that the launcher reads it as latin1, 5 ms less than UTF-8,
  // and V8 keeps it as a one-byte string, half the memory.
  charset: 'ascii',
  // V8 keeps a script's source as long as the process runs (lazy functions compile from it):
  // without blanks and comments it is a quarter smaller. Names stay, for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  format: 'cjs',
  target: 'node20',
  // Loaded on demand (createRequire): they stay in node_modules.
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
  plugins: [englishOnly, fakerEnglishUsed],
  // The modules that find files beside them (scenarios, fixtures, createRequire) read their URL.
  define: { 'import.meta.url': '__novuModuleUrl' },
  // Strict as the ES modules it comes from: the directive must come first.
  banner: {
    js: '"use strict"; var __novuModuleUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  logLevel: 'warning',
}

// The chunks of earlier builds (ESM, code splitting) would stay and ship unused.
rmSync('dist/chunks', { recursive: true, force: true })
await build({ ...shared, entryPoints: { 'novu-mock': 'dist/cli.js' } })
await build({ ...shared, entryPoints: { index: 'dist/index.js' } })

// A script cannot start with a hashbang (the launcher wraps it in a function).
for (const bundle of ['dist/novu-mock.cjs', 'dist/index.cjs'])
  writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(/^#![^\n]*/, ''))
await oneByteSources('dist')
// What is left past ASCII is in tagged templates' text (their raw text is the tag's to read):
// the dashboard's tag, hono's html, reads the cooked text, the same for an escape.
// The file holds the module wrapper Node would add (src/code-cache.ts runs it): V8 then takes
// the string as the launcher read it (over a megabyte, Node keeps such a string off V8's heap)
// where a wrapper joined at run time left V8 a copy on its heap, for as long as the process ran.
for (const bundle of ['dist/novu-mock.cjs', 'dist/index.cjs']) {
  const text = readFileSync(bundle, 'utf8').replace(/[^\0-\x7f]/gu, escapeChar)
  writeFileSync(bundle, `${MODULE_WRAPPER[0]}${text}${MODULE_WRAPPER[1]}`, 'latin1')
}

// The launchers: the CLI, and the package's entry, which exports what the bundle exports
// (its types stay tsc's, dist/index.d.ts, from the same source).
/** The bundle's SHA-256: the launcher passes it on, so that a start need not hash two megabytes. */
const built = (bundle) =>
  createHash('sha256')
    .update(readFileSync(`dist/${bundle}`))
    .digest('hex')
const header =
  "// Written by scripts/bundle.mjs: runs the bundle beside it through V8's code cache.\n"
writeFileSync(
  'dist/novu-mock.mjs',
  `#!/usr/bin/env node\n${header}import { runCached } from './code-cache.js'\nrunCached('novu-mock.cjs', '${built('novu-mock.cjs')}')\n`,
  { mode: 0o755 }
)
const names = Object.keys(evaluated('dist/index.cjs'))
writeFileSync(
  'dist/index.js',
  `${header}import { runCached } from './code-cache.js'\nconst library = runCached('index.cjs', '${built('index.cjs')}')\n` +
    names.map((name) => `export const ${name} = library.${name}\n`).join('')
)

// The dashboard's script and style sheet are served as files: tsc leaves them out of dist/.
cpSync('src/admin/ui/assets', 'dist/admin/ui/assets', { recursive: true })
