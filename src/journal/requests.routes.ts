import { z } from 'zod'
import { PathPatternSchema } from '../http/path-pattern.schema.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'journal'>
import type { JournalFilter } from './journal.js'
import { OptionalApiKeyQuerySchema } from '../admin/admin.schemas.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']

const JournalFilterSchema = lazySchema(() =>
  z.object({
    method: z.string().max(16).optional().meta({ description: 'GET, POST, …' }),
    path: PathPatternSchema.optional().meta({
      description: 'exact path, or a pattern such as /v1/workflows/:id/status or /v1/topics*',
    }),
    status: z
      .string()
      .regex(/^([1-5]xx|\d{1,3})$/i, 'a status such as 404, or a class such as 5xx')
      .optional(),
    apiKey: z
      .string()
      .max(256)
      .optional()
      .meta({ description: 'only requests made with this key' }),
    since: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'ISO time; only requests at or after it' }),
    matched: z
      .enum(['true', 'false'])
      .optional()
      .meta({ description: 'false: requests that matched no route' }),
    limit: z
      .string()
      .regex(/^\d+$/, 'a whole number')
      .optional()
      .meta({ description: 'at most this many, newest first (default 100)' }),
  })
)

type FilterQuery = z.infer<typeof JournalFilterSchema>

function toFilter(query: FilterQuery, withLimit: boolean): JournalFilter {
  return {
    method: query.method,
    path: query.path,
    status: query.status,
    apiKey: query.apiKey,
    since: query.since,
    matched: query.matched === undefined ? undefined : query.matched === 'true',
    limit: withLimit ? Number(query.limit ?? 100) : undefined,
  }
}

const EntrySchema = lazySchema(() =>
  z.looseObject({
    id: z.number(),
    at: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number(),
    durationMs: z.number(),
    matched: z.boolean(),
    notes: z.array(z.string()).optional().meta({
      description: 'what the mock, as Novu, dropped or changed of what was sent, and the fix',
    }),
  })
)

export function requestRoutes(state: State): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/requests',
      summary: 'Read the request journal, newest first, with filters',
      tags,
      auth: 'admin',
      query: JournalFilterSchema,
      responses: {
        200: {
          description: 'Matching entries',
          schema: lazySchema(() =>
            z.object({
              data: z.array(EntrySchema),
              totalCount: z.number(),
              capacity: z.number(),
            })
          ),
        },
      },
      handler(c, { query }) {
        const { data, totalCount } = state.journal.search(toFilter(query, true))
        return json(c, 200, { data, totalCount, capacity: state.journal.capacity })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/requests/count',
      summary: 'Count journal entries with the same filters',
      tags,
      auth: 'admin',
      query: JournalFilterSchema,
      responses: {
        200: {
          description: 'The count',
          schema: lazySchema(() => z.object({ count: z.number() })),
        },
      },
      handler: (c, { query }) =>
        json(c, 200, { count: state.journal.count(toFilter(query, false)) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/requests/export',
      summary: 'The journal as a replay script (JSON, or YAML with format=yaml)',
      tags,
      auth: 'admin',
      query: lazySchema(() =>
        JournalFilterSchema.unwrap().extend({
          format: z.enum(['json', 'yaml']).optional(),
          name: z.string().max(64).optional(),
        })
      ),
      responses: { 200: { description: 'A script for `novu-mock replay`, oldest request first' } },
      async handler(c, { query }) {
        // The replay code and its YAML writer load on first export, not at start-up.
        const { journalToScript, scriptToYaml } = await import('../replay/export.js')
        const script = journalToScript(state.journal.list(toFilter(query, false)), {
          name: query.name ?? 'recorded-session',
        })
        if (query.format !== 'yaml') return json(c, 200, script)
        c.header('Content-Type', 'application/yaml; charset=utf-8')
        return c.body(scriptToYaml(script), 200)
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/__admin/requests',
      summary: "Clear the journal, or only one API key's entries",
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      responses: {
        200: {
          description: 'Cleared',
          schema: lazySchema(() => z.object({ data: z.object({ cleared: z.number() }) })),
        },
      },
      handler: (c, { query }) =>
        json(c, 200, { data: { cleared: state.journal.clear({ apiKey: query.apiKey }) } }),
    }),
  ]
}
