import type { IncomingMessage } from 'node:http'

const HTTP_SCHEME = /^https?:\/\//i
const SLASH = 47

/** Request-targets rewritten for the app, by request, so that errors can echo what was sent. */
const sentTargets = new WeakMap<IncomingMessage, string>()

/** The request-target as the client sent it, when the app sees a rewritten one. */
export function sentTarget(incoming: IncomingMessage | undefined): string | undefined {
  return incoming === undefined ? undefined : sentTargets.get(incoming)
}

const pathHasBackslash = (target: string) => {
  const backslash = target.indexOf('\\')
  const query = target.indexOf('?')
  return backslash !== -1 && (query === -1 || backslash < query)
}

/**
 * Node accepts some request-targets that @hono/node-server refuses with an empty 400 before the
 * app runs: a backslash in the path, an absolute URL with an upper-case scheme, `*`. Express
 * routes them all, so each is rewritten in place to what Express would route: the scheme in
 * lower case (served as usual), any other target to a path no route matches (404 `Cannot GET
 * <target>`, journaled under the rewritten path). Backslashes become `%5C`, not the slashes URL
 * parsing would make of them: that would have served `/v1\topics` as `/v1/topics`.
 */
export function retarget(incoming: IncomingMessage): void {
  const target = incoming.url ?? ''
  if (target.charCodeAt(0) === SLASH && !target.includes('\\')) return
  if (HTTP_SCHEME.test(target) && !pathHasBackslash(target)) {
    const lowered = target.replace(HTTP_SCHEME, (scheme) => scheme.toLowerCase())
    if (URL.canParse(lowered)) {
      incoming.url = lowered
      return
    }
  }
  if (target.charCodeAt(0) === SLASH) {
    if (!pathHasBackslash(target)) return
    const query = target.indexOf('?')
    const path = query === -1 ? target : target.slice(0, query)
    const rest = query === -1 ? '' : target.slice(query)
    incoming.url = path.replaceAll('\\', '%5C') + rest
  } else {
    // Encoded whole, so no dot segment can walk the path back onto a route. `*` goes to `/`:
    // Hono's trie router runs root middleware twice for the path `/*`.
    incoming.url = target === '*' ? '/' : `/${encodeURIComponent(target)}`
  }
  sentTargets.set(incoming, target)
}
