import type { ReplayAdmin } from './schema.js'

export const ADMIN_PREFIX = '/__admin'

export interface AdminCall {
  method: 'POST' | 'DELETE'
  path: string
  body?: unknown
}

/** The control-plane call an admin step stands for, on the target's own /__admin API. */
export function adminCall(admin: ReplayAdmin): AdminCall {
  if (admin.loadScenario !== undefined) {
    const body =
      typeof admin.loadScenario === 'string'
        ? { name: admin.loadScenario }
        : { scenario: admin.loadScenario }
    return { method: 'POST', path: `${ADMIN_PREFIX}/scenario`, body }
  }
  if (admin.addRule !== undefined)
    return { method: 'POST', path: `${ADMIN_PREFIX}/rules`, body: admin.addRule }
  if (admin.reset !== undefined) {
    const query = admin.reset === true ? '' : `?apiKey=${encodeURIComponent(admin.reset.apiKey)}`
    return { method: 'POST', path: `${ADMIN_PREFIX}/reset${query}` }
  }
  return { method: 'DELETE', path: `${ADMIN_PREFIX}/rules` }
}

/** The short name a report gives the action: `loadScenario`, `addRule`, … */
export function adminActionName(admin: ReplayAdmin): string {
  return Object.keys(admin).find((key) => admin[key as keyof ReplayAdmin] !== undefined) ?? 'admin'
}

/** The error text of an admin answer: upstream's envelope keeps it in `message`. */
export function adminErrorText(body: unknown, text: string): string {
  if (body !== null && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown }
    return Array.isArray(message) ? message.join('; ') : String(message)
  }
  return text.slice(0, 200)
}
