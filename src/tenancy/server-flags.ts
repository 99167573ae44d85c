import { z } from 'zod'
import { lazySchema } from '../lazy-schema.js'

/**
 * Upstream's feature flags whose value in Novu Cloud is unknown and that change answers: each
 * defaults to what the facts assume, and a scenario may switch it for all its environments or
 * for one key's.
 */
export const ServerFlagsSchema = lazySchema(() =>
  z.strictObject({
    /** 2024-10: preference reads and writes answer 400 while it is off (it was on in Cloud). */
    IS_WORKFLOW_PREFERENCES_ENABLED: z.boolean().optional(),
    /** Every tenant route answers 405 while it is on (the code default is off). */
    IS_V2_ENABLED: z.boolean().optional(),
  })
)

export type ServerFlagsDeclaration = z.infer<typeof ServerFlagsSchema>
export type ServerFlags = Required<ServerFlagsDeclaration>

export const DEFAULT_SERVER_FLAGS: ServerFlags = Object.freeze({
  IS_WORKFLOW_PREFERENCES_ENABLED: true,
  IS_V2_ENABLED: false,
})

/** The defaults, then the scenario's, then the key's. */
export const resolveServerFlags = (
  ...layers: (ServerFlagsDeclaration | undefined)[]
): ServerFlags =>
  Object.freeze(Object.assign({}, DEFAULT_SERVER_FLAGS, ...layers.filter(Boolean)) as ServerFlags)
