import type { Context } from 'hono'
import type { AppEnv } from '../app-env.js'
import { unauthorized } from '../errors.js'
import { fakerLoaded, loadFaker } from '../fixtures/faker.js'
import { type Environments } from './environments.js'
import type { Environment } from './environment.js'
import type { Scenario } from '../scenarios/schema.js'
import { WeakCache } from '../cache.js'

const MAX_API_KEY_LENGTH = 256

const NO_KEYS: ReadonlySet<string> = new Set()
const revokedByScenario = new WeakCache<Scenario, ReadonlySet<string>>('revoked keys by scenario')

/** The keys a scenario declares revoked (`environments.keys[].revoked`), worked out once per scenario. */
export function revokedKeys(scenario: Scenario): ReadonlySet<string> {
  let keys = revokedByScenario.get(scenario)
  if (!keys) {
    const revoked = scenario.environments.keys.filter((k) => k.revoked).map((k) => k.apiKey)
    keys = revoked.length ? new Set(revoked) : NO_KEYS
    revokedByScenario.set(scenario, keys)
  }
  return keys
}

/**
 * Upstream's UserAuthGuard for API keys. The scheme is the text before the first space,
 * compared case-sensitively; each failure has its own 401 message.
 */
export function createAuthenticator(
  environments: Environments,
  /** The keys that answer 401 `API Key not found` whatever the scenario's strictness. */
  revoked: () => ReadonlySet<string> = () => NO_KEYS
) {
  function resolve(c: Context<AppEnv>, apiKey: string): Environment {
    const env = environments.resolve(apiKey)
    if (!env) throw unauthorized('API Key not found')
    c.set('env', env)
    return env
  }

  /** The environment, or a promise of it while faker is still loading (only just after start). */
  return function authenticate(c: Context<AppEnv>): Environment | Promise<Environment> {
    const header = c.req.header('authorization')
    if (!header) throw unauthorized('Missing authorization header')
    const space = header.indexOf(' ')
    const scheme = space === -1 ? header : header.slice(0, space)
    if (scheme === 'None') throw unauthorized('Missing authorization header')
    // The mock cannot verify dashboard JWTs: every Bearer token fails as an invalid one does.
    if (scheme === 'Bearer') throw unauthorized()
    if (scheme !== 'ApiKey') throw unauthorized(`Invalid authentication scheme: "${scheme}"`)
    const apiKey = header.slice(7)
    if (!apiKey) throw unauthorized()
    // No real key is this long; refusing it keeps a hostile header from becoming an environment.
    if (apiKey.length > MAX_API_KEY_LENGTH) throw unauthorized('API Key not found')
    // A revoked key is one upstream no longer finds: the same 401, before any environment exists.
    if (revoked().has(apiKey)) throw unauthorized('API Key not found')
    if (!fakerLoaded()) return loadFaker().then(() => resolve(c, apiKey))
    return resolve(c, apiKey)
  }
}
