import { z } from 'zod'
import { badRequest, notFound } from '../errors.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import { json } from '../http/respond.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments' | 'latency' | 'options' | 'rules'>
import { OptionalApiKeyQuerySchema } from '../admin/admin.schemas.js'
import { admitRule } from './rule-budget.js'
import { LatencySchema, RuleSchema, RuleViewSchema, type Rule } from './rules.schemas.js'
import { lazySchema } from '../lazy-schema.js'

const tags = ['admin']
const RuleIdParamsSchema = lazySchema(() =>
  z.object({
    id: z.string().meta({ description: 'the rule id, e.g. rule-1' }),
  })
)
const KeyQuerySchema = lazySchema(() =>
  OptionalApiKeyQuerySchema.unwrap().extend({
    apiKey: OptionalApiKeyQuerySchema.unwrap().shape.apiKey.meta({
      description: 'only the rules whose match.apiKey is this key (what a per-key reset removes)',
    }),
  })
)

/** A rule added for one key matches that key only: a different match.apiKey is a mistake. */
function scopedRule(rule: Rule, apiKey: string | undefined): Rule {
  if (apiKey === undefined) return rule
  if (rule.match.apiKey !== undefined && rule.match.apiKey !== apiKey)
    throw badRequest([
      `match.apiKey: the rule is added for the key of ?apiKey=, so it cannot match another key`,
    ])
  return { ...rule, match: { ...rule.match, apiKey } }
}

function addRule(state: State, rule: Rule) {
  const room = admitRule(state, rule)
  const added = state.rules.add(rule)
  room.keep(added.id)
  return added
}

/** The control plane's chaos routes: /__admin/rules and /__admin/latency. */
export function ruleRoutes(state: State): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/rules',
      summary:
        'List the chaos rules in the order they are tried (newest first), with their counters',
      tags,
      auth: 'admin',
      responses: {
        200: {
          description: 'The rules',
          schema: lazySchema(() =>
            z.object({ data: z.array(RuleViewSchema), maxRules: z.number() })
          ),
        },
      },
      query: KeyQuerySchema,
      handler: (c, { query }) =>
        json(c, 200, { data: state.rules.list(query.apiKey), maxRules: state.options.maxRules }),
    }),
    defineRoute({
      method: 'POST',
      path: '/__admin/rules',
      summary:
        'Add a chaos rule (latency and/or fault); the newest matching rule wins. With apiKey, the rule matches that key only',
      tags,
      auth: 'admin',
      query: OptionalApiKeyQuerySchema,
      body: RuleSchema,
      responses: {
        201: {
          description: 'Added, with its id',
          schema: lazySchema(() => z.object({ data: RuleViewSchema })),
        },
        400: {
          description: 'Not a valid rule (every problem, with its path), or maxRules reached',
        },
        409: { description: 'A rule with this id exists' },
      },
      handler: (c, { body, query }) =>
        json(c, 201, { data: addRule(state, scopedRule(body, query.apiKey)) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/__admin/rules/:id',
      summary: 'Remove one chaos rule (with apiKey, only if it matches that key only)',
      tags,
      auth: 'admin',
      params: RuleIdParamsSchema,
      query: OptionalApiKeyQuerySchema,
      responses: {
        200: {
          description: 'Removed; the rule as it was',
          schema: lazySchema(() => z.object({ data: RuleViewSchema })),
        },
        404: { description: 'No rule with this id' },
      },
      handler(c, { params, query }) {
        const found = state.rules.get(params.id)
        if (!found || (query.apiKey !== undefined && found.match.apiKey !== query.apiKey))
          throw notFound(
            query.apiKey === undefined
              ? `No rule with id "${params.id}". GET /__admin/rules lists the rules.`
              : `No rule with id "${params.id}" for this key. GET /__admin/rules?apiKey=… lists them.`
          )
        return json(c, 200, { data: state.rules.remove(params.id) })
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/__admin/rules',
      summary:
        "Remove every chaos rule, the scenario's included (POST /__admin/reset brings those back); with apiKey, only the rules that match just that key",
      tags,
      auth: 'admin',
      query: KeyQuerySchema,
      responses: {
        200: {
          description: 'How many were removed',
          schema: lazySchema(() => z.object({ data: z.object({ removed: z.number() }) })),
        },
      },
      handler: (c, { query }) =>
        json(c, 200, { data: { removed: state.rules.clear(query.apiKey) } }),
    }),
    defineRoute({
      method: 'GET',
      path: '/__admin/latency',
      summary: 'Show the global latency added to every Novu route',
      tags,
      auth: 'admin',
      responses: {
        200: {
          description: 'In milliseconds',
          schema: lazySchema(() => z.object({ data: LatencySchema })),
        },
      },
      handler: (c) => json(c, 200, { data: { ms: state.latency } }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/__admin/latency',
      summary:
        'Set the global latency added to every Novu route (0 turns it off; reset restores the option)',
      tags,
      auth: 'admin',
      body: LatencySchema,
      responses: {
        200: {
          description: 'The new latency',
          schema: lazySchema(() => z.object({ data: LatencySchema })),
        },
        400: { description: 'Not a number of milliseconds from 0 to 600000' },
      },
      handler(c, { body }) {
        state.latency = body.ms
        return json(c, 200, { data: { ms: state.latency } })
      },
    }),
  ]
}
