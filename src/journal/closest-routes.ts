import type { Generation } from '../generations/generation.js'
import { NOVU_ROUTES } from '../novu-routes.js'

const segments = (path: string) => path.split('/').filter(Boolean)

function similarity(
  method: string,
  path: string[],
  route: { method: string; path: string }
): number {
  const candidate = segments(route.path)
  let score = route.method === method ? 1 : 0
  for (let i = 0; i < Math.min(path.length, candidate.length); i++) {
    const want = candidate[i] ?? ''
    if (want === path[i]) score += 3
    else if (want.startsWith(':')) score += 2
    else break
  }
  return score - Math.abs(path.length - candidate.length)
}

const servedIn = (generation: Generation) =>
  NOVU_ROUTES.filter((route) => !route.existsIn || route.existsIn(generation))

/** The three routes the generation serves nearest to an unmatched request, to show in the journal. */
export function closestRoutes(method: string, path: string, generation: Generation): string[] {
  const parts = segments(path)
  return servedIn(generation)
    .map((route) => ({ route, score: similarity(method, parts, route) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map(({ route }) => `${route.method} ${route.path}`)
}

const ROUTE_PATTERNS = NOVU_ROUTES.map((route) => ({
  method: route.method,
  existsIn: route.existsIn,
  regex: new RegExp(`^${route.path.replace(/:[^/]+/g, '[^/]+')}$`),
}))

/** Whether a Novu route of the generation serves this method and path (a chaos fault may have answered first). */
export const routeExists = (method: string, path: string, generation: Generation) =>
  ROUTE_PATTERNS.some(
    (route) =>
      route.method === method &&
      (!route.existsIn || route.existsIn(generation)) &&
      route.regex.test(path)
  )
