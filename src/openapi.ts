import { z } from 'zod'
import type { AnyRoute } from './http/route.js'
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

function parameters(route: AnyRoute) {
  const out: JsonSchema[] = []
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
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

function operation(route: AnyRoute) {
  const responses: Record<string, JsonSchema> = {}
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? { content: { 'application/json': { schema: toSchema(response.schema, 'output') } } }
        : {}),
    }
  }
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    summary: route.summary,
    tags: route.tags,
    security: [{ [route.auth === 'apiKey' ? 'ApiKey' : 'AdminToken']: [] }],
    ...(parameters(route).length ? { parameters: parameters(route) } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  }
}

/** The OpenAPI 3.1 document of every route the app serves, built from the route tables themselves. */
export function buildOpenApiDocument(routes: AnyRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = openApiPath(route.path)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(route)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'novu-mock',
      version: VERSION,
      description:
        'An offline simulator of the Novu v1 API (topics, workflow groups, messages, workflows) and its control plane under /__admin.',
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
    },
    paths,
  }
}
