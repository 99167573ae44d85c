import { createRequire } from 'node:module'
import type Handlebars from 'handlebars'

/**
 * Handlebars' one-file build, loaded from node_modules by its first user: the renderer (its
 * compiler and runtime) or a workflow text too complex for the simple parse (its parser). One
 * copy serves both, and a start that does neither loads none. The package's main entry loads some
 * thirty modules, each with an inline source map V8 keeps as long as the process runs (1 MB of
 * heap), and V8 keeps the unminified build's source as two bytes a character (0.43 MB, against
 * 0.09 for this one, the same code).
 */
const requireLazily = createRequire(import.meta.url)
const BUILD = 'handlebars/dist/handlebars.min.js'

export const loadHandlebars = (): typeof Handlebars => requireLazily(BUILD) as typeof Handlebars
