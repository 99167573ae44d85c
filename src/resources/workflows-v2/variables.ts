/**
 * The variables a step's templates may use (`steps[].variables`), as a JSON Schema, and the
 * path lookup upstream's Liquid check makes in it.
 */
import { isObj, type Obj } from '../../objects.js'
import { BoundedCache, textBytes } from '../../cache.js'

export interface StepForVariables {
  stepId?: string
  type?: string
  /** An http_request step's declared response body. */
  responseBodySchema?: unknown
}

/** `buildVariablesSchema({})`: an open object. */
export const openVariables = (): Obj => ({
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: true,
})

function subscriberSchema(description: string): Obj {
  const text = (d: string) => ({ type: 'string', description: d })
  return {
    type: 'object',
    description,
    properties: {
      firstName: text("Subscriber's first name"),
      lastName: text("Subscriber's last name"),
      email: text("Subscriber's email address"),
      phone: text("Subscriber's phone number (optional)"),
      avatar: text("URL to the subscriber's avatar image (optional)"),
      locale: text('Locale for the subscriber (optional)'),
      timezone: text('Timezone for the subscriber (optional)'),
      subscriberId: text('Unique identifier for the subscriber'),
      isOnline: {
        type: 'boolean',
        description: 'Indicates if the subscriber is online (optional)',
      },
      lastOnlineAt: {
        type: 'string',
        format: 'date-time',
        description: 'The last time the subscriber was online (optional)',
      },
      data: openVariables(),
    },
    required: ['subscriberId'],
    additionalProperties: false,
  }
}

const workflowSchema = (): Obj => ({
  type: 'object',
  description: 'Schema representing the workflow entity',
  properties: {
    workflowId: { type: 'string', description: 'Workflow identifier' },
    name: { type: 'string', description: 'Name of the workflow' },
    description: { type: 'string', description: 'Description of the workflow' },
    tags: { type: 'array', items: { type: 'string' } },
    severity: {
      type: 'string',
      enum: ['high', 'medium', 'low', 'none'],
      enumName: 'SeverityLevelEnum',
      description: 'Severity of the workflow',
    },
  },
  required: ['workflowId', 'name'],
})

const contextSchema = (): Obj => ({
  type: 'object',
  description: 'Context data passed at trigger time following ContextPayload structure',
  properties: {},
  required: [],
  additionalProperties: {
    type: 'object',
    description: 'Context value - can be accessed as string or object',
    properties: {
      id: { type: 'string', description: 'Context identifier' },
      data: {
        type: 'object',
        description: 'Additional context data',
        properties: {},
        additionalProperties: true,
      },
    },
    required: [],
    additionalProperties: false,
  },
})

function envSchema(environmentName: string, environmentType: string): Obj {
  const properties: Obj = {}
  for (const key of Object.keys({ name: environmentName, type: environmentType }))
    properties[key] = { type: 'string', description: `Environment variable: ${key}` }
  return {
    type: 'object',
    description: 'Environment variables accessible in workflow templates',
    properties,
    required: [],
    additionalProperties: false,
  }
}

const emptyResult = (): Obj => ({
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: false,
})

/** What a finished step exposes to later ones (`steps.<stepId>.…`), by its type. */
function resultSchema(step: StepForVariables, payloadSchema: unknown): Obj | undefined {
  switch (step.type) {
    case 'sms':
    case 'email':
    case 'push':
    case 'chat':
    case 'tool':
      return emptyResult()
    case 'in_app':
      return {
        type: 'object',
        properties: {
          seen: { type: 'boolean' },
          read: { type: 'boolean' },
          lastSeenDate: { type: 'string', format: 'date-time', nullable: true },
          lastReadDate: { type: 'string', format: 'date-time', nullable: true },
        },
        required: ['seen', 'read', 'lastSeenDate', 'lastReadDate'],
        additionalProperties: false,
      }
    case 'delay':
      return {
        type: 'object',
        properties: { duration: { type: 'number' } },
        required: ['duration'],
        additionalProperties: false,
      }
    case 'digest':
      return {
        type: 'object',
        properties: {
          eventCount: { type: 'number' },
          events: {
            type: 'array',
            properties: { length: { type: 'number' } },
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                time: { type: 'string' },
                payload: isObj(payloadSchema)
                  ? { ...payloadSchema, additionalProperties: true }
                  : { type: 'object', additionalProperties: true },
              },
              required: ['id', 'time', 'payload'],
              additionalProperties: false,
            },
          },
        },
        required: ['events'],
        additionalProperties: false,
      }
    case 'http_request':
      return isObj(step.responseBodySchema)
        ? step.responseBodySchema
        : { type: 'object', properties: {}, additionalProperties: true }
    default:
      return undefined
  }
}

export interface VariableSchemaInput {
  /** The steps before this one (all of them while a workflow is being written). */
  previousSteps: StepForVariables[]
  /** The workflow's payload schema; an open object when it has none. */
  payloadSchema: unknown
  environmentName: string
  environmentType: string
}

/** The variable schema of one step. */
export function buildVariableSchema(input: VariableSchemaInput): Obj {
  const steps: Obj = {}
  for (const step of input.previousSteps) {
    if (!step.stepId || !step.type) continue
    const result = resultSchema(step, input.payloadSchema)
    if (result) steps[step.stepId] = result
  }
  return {
    type: 'object',
    properties: {
      workflow: workflowSchema(),
      subscriber: subscriberSchema('Schema representing the subscriber entity'),
      actor: {
        ...subscriberSchema('Schema representing the subscriber entity'),
        description: 'Schema representing the actor entity sent during workflow trigger',
      },
      steps: {
        type: 'object',
        properties: steps,
        required: [],
        additionalProperties: false,
        description: 'Previous Steps Results',
      },
      payload: isObj(input.payloadSchema) ? input.payloadSchema : openVariables(),
      context: contextSchema(),
      env: envSchema(input.environmentName, input.environmentType),
    },
    additionalProperties: false,
  }
}

/** Whether a dotted variable path exists in a variable schema (upstream's `isPropertyAllowed`). */
export function isPropertyAllowed(schema: Obj | undefined, propertyPath: string): boolean {
  if (!schema) return true
  let current: Obj = schema
  const dotted = propertyPath.split('.')
  // Only a path with an index (`items[0]`) has parts to split further.
  const parts = !propertyPath.includes('[')
    ? dotted
    : dotted.flatMap((part) => {
        const match = part.match(/^(.+?)\[(\d+)\]$/)
        return match ? [match[1] as string, match[2] as string] : [part]
      })
  for (const part of parts) {
    if (!isObj(current)) return false
    const { properties, additionalProperties, type } = current
    const own = isObj(properties) ? properties[part] : undefined
    if (own) {
      current = own as Obj
      continue
    }
    if (type === 'array') {
      const items = current.items as Obj | undefined
      if (!Number.isNaN(Number(part)) && Number(part) >= 0) {
        current = items as Obj
        continue
      }
      const itemProperties = isObj(items) && isObj(items.properties) ? items.properties : undefined
      if (itemProperties?.[part]) {
        current = itemProperties[part] as Obj
        continue
      }
    }
    if (additionalProperties === true) return true
    if (typeof additionalProperties === 'object' && additionalProperties !== null) {
      current = additionalProperties as Obj
      continue
    }
    return false
  }
  return true
}

/** A variable schema and its JSON text, kept for every step that has the same inputs. */
export interface SharedVariableSchema {
  /** Read-only: the same object answers every step with these inputs. */
  readonly schema: Obj
  readonly text: string
}

/**
 * Variable schemas by their inputs' JSON. Every step of every write builds one (for its issues)
 * and every answer one per step again, though few workflows differ in what the schema reads:
 * the earlier steps' ids and types, the payload schema, the environment. The last few are kept,
 * each parsed from its text, so that it shares nothing with the request it was built for.
 */
const KEPT_SCHEMAS = 64
const MAX_KEY_LENGTH = 16 * 1024

/**
 * Whether values whose JSON is `key` are all the objects parsed from it would be: JSON writes
 * null for NaN and Infinity too (truthy where a schema is looked up), and a `__proto__` member
 * set on a built object is its prototype, which JSON leaves out. Keys with either are not kept.
 */
export const faithfulKey = (key: string) => !key.includes('null') && !key.includes('__proto__')

const keptSchemas = new BoundedCache<string, SharedVariableSchema>('variable schemas', {
  maxEntries: KEPT_SCHEMAS,
  maxBytes: 8 * 1024 * 1024,
  // The text and the object parsed from it.
  sizeOf: ({ text }) => 3 * textBytes(text),
})

export function sharedVariableSchema(input: VariableSchemaInput): SharedVariableSchema {
  // What buildVariableSchema reads; a missing stepId, type or schema reads as 0 does.
  const key = JSON.stringify([
    input.environmentName,
    input.environmentType,
    input.payloadSchema ?? 0,
    input.previousSteps.map((s) => [s.stepId ?? 0, s.type ?? 0, s.responseBodySchema ?? 0]),
  ])
  const found = keptSchemas.get(key)
  if (found) return found
  const schema = buildVariableSchema(input)
  const text = JSON.stringify(schema)
  if (key.length > MAX_KEY_LENGTH || !faithfulKey(key)) return { schema, text }
  const shared = { schema: JSON.parse(text) as Obj, text }
  return keptSchemas.set(key, shared)
}
