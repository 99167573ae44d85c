import { z } from 'zod'
import type { AnyRoute } from './http/route.js'
import { resolveFor, type Generation } from './generations/generation.js'
import { VERSION } from './admin/version.js'

type JsonSchema = Record<string, unknown>

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema
  return rest
}

/** `/v1/workflows/:workflowId/status` → `/v1/workflows/{workflowId}/status` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

function parameters(route: AnyRoute, generation: Generation) {
  const out: JsonSchema[] = []
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query && resolveFor(route.query, generation)],
  ] as const) {
    if (!schema) continue
    const json = toSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>
      required?: string[]
    }
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      })
    }
  }
  return out
}

function operation(route: AnyRoute, generation: Generation) {
  const responses: Record<string, JsonSchema> = {}
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? { content: { 'application/json': { schema: toSchema(response.schema, 'output') } } }
        : {}),
    }
  }
  const validates = route.params || route.query || route.body
  if (validates && generation.name !== '2024-10')
    responses['422'] ??= ref('Validation failed', 'ValidationError')
  responses.default = ref("Any other error, in the generation's error body", 'Error')
  const params = parameters(route, generation)
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    summary: route.summary,
    tags: route.tags,
    security: [{ [route.auth === 'apiKey' ? 'ApiKey' : 'AdminToken']: [] }],
    ...(params.length ? { parameters: params } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: toSchema(resolveFor(route.body, generation), 'input') },
            },
          },
        }
      : {}),
    responses,
  }
}

/** The OpenAPI 3.1 document of every route the app serves, built from the route tables themselves. */
const ref = (description: string, schema: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
})

/** The error bodies of each generation's exception filter. */
function errorSchemas(generation: Generation): Record<string, JsonSchema> {
  const base = {
    statusCode: { type: 'integer' },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
    errorId: { type: 'string', description: 'only on 500' },
  }
  const required = ['statusCode', 'timestamp', 'path', 'message']
  if (generation.name === '2024-10')
    return {
      Error: {
        type: 'object',
        required,
        properties: {
          ...base,
          message: {
            description: 'a text, or every validation message in order (400)',
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          },
          error: { type: 'string', description: 'the reason phrase, when thrown with a text' },
        },
      },
    }
  const error = {
    type: 'object',
    required,
    description: "`ctx`'s keys are also copied to the top level",
    properties: { ...base, message: {}, ctx: { type: 'object' } },
  }
  const constraint = {
    type: 'object',
    required: ['messages'],
    properties: { messages: { type: 'array', items: { type: 'string' } }, value: {} },
  }
  return {
    Error: error,
    ValidationError: {
      ...error,
      required: [...required, 'errors'],
      properties: {
        ...error.properties,
        errors: { type: 'object', additionalProperties: constraint },
      },
    },
  }
}

export function buildOpenApiDocument(routes: AnyRoute[], generation: Generation) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    if (route.existsIn && !route.existsIn(generation)) continue
    const path = openApiPath(route.path)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(route, generation)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'novu-mock',
      version: VERSION,
      description: `An offline simulator of the Novu API (topics, workflow groups, messages, workflows) and its control plane under /__admin, answering as the ${generation.name} generation: ${generation.description}.`,
      'x-novu-api-generation': generation.name,
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'ApiKey <key>',
        },
        AdminToken: { type: 'http', scheme: 'bearer', description: 'only when ADMIN_TOKEN is set' },
      },
      schemas: errorSchemas(generation),
    },
    paths,
  }
}
