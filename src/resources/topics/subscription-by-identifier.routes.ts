import { z } from 'zod'
import { httpError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import { field, fieldWith } from '../../http/validate.js'
import { isString } from '../../http/rules.js'
import { isObj, type Obj } from '../../objects.js'
import type { Environment } from '../../tenancy/environment.js'
import type { Workflow } from '../../workflow-model/workflows.types.js'
import { nestedEachMessages } from './topics.schemas.js'
import type { Subscription } from './topics.store.js'
import { topicNotFoundV2 } from './topics.paging.js'
import { subscriptionResult } from './topics.views.js'
import { lazySchema } from '../../lazy-schema.js'

/**
 * GET and PATCH /v2/topics/:topicKey/subscriptions/:identifier (2026 only): one subscription by
 * its identifier; PATCH renames it or replaces its workflow preferences.
 */

const tags = ['Topic subscriptions']
const v2 = { existsIn: (g: { topics: { v2: boolean } }) => g.topics.v2 }
const path = '/v2/topics/:topicKey/subscriptions/:identifier'
const params = lazySchema(() => z.object({ topicKey: z.string(), identifier: z.string() }))

/** A workflow preference a subscription keeps: the workflow's id, and whether it is on. */
interface SubscriptionPreference {
  workflowId: string
  enabled: boolean
  condition?: unknown
}

type WithPreferences = Subscription & { preferences?: SubscriptionPreference[] }

const UpdateBody = lazySchema(() =>
  z.object({
    name: field<string>('name', [isString], { type: 'string' }, { optional: true }),
    preferences: fieldWith<Obj[]>(
      { type: 'array', items: { type: 'object' } },
      nestedEachMessages('preferences', []),
      { optional: true }
    ),
  })
)
type UpdateBodyValue = z.infer<typeof UpdateBody>

/** The context suffix is dropped while contexts are off (IS_CONTEXT_PREFERENCES_ENABLED). */
const withoutContext = (identifier: string) => identifier.replace(/:ctx_.*$/, '')

function find(env: Environment, topicKey: string, identifier: string): WithPreferences | undefined {
  const found = env.topics.subscriptions.byIdentifier(withoutContext(identifier))
  return found && found.topicKey === topicKey ? found : undefined
}

/** The live workflows an item names by id or trigger identifier, or by tag. */
function workflowsOf(env: Environment, item: Obj): Workflow[] {
  const filter = isObj(item.filter) ? item.filter : {}
  const ids = [item.workflowId, ...(Array.isArray(filter.workflowIds) ? filter.workflowIds : [])]
  const found = new Map<string, Workflow>()
  for (const id of ids) {
    if (typeof id !== 'string') continue
    const workflow = env.workflows.get(id) ?? env.workflows.byIdentifier(id)
    if (workflow) found.set(workflow._id, workflow)
  }
  const wanted = Array.isArray(filter.tags) ? filter.tags : []
  if (wanted.length)
    for (const workflow of env.workflows.live())
      if (workflow.tags.some((t) => wanted.includes(t))) found.set(workflow._id, workflow)
  return [...found.values()]
}

function preferenceView(env: Environment, subscription: WithPreferences) {
  const list = (subscription.preferences ?? []).flatMap((p) => {
    const workflow = env.workflows.get(p.workflowId)
    if (!workflow) return []
    return [
      {
        workflow: {
          id: workflow._id,
          identifier: workflow.triggers[0]?.identifier,
          name: workflow.name,
          critical: workflow.critical,
          tags: workflow.tags,
          data: workflow.data,
          severity: (workflow.severity as string | undefined) ?? 'none',
        },
        subscriptionId: subscription.identifier,
        enabled: p.enabled,
        ...(p.condition !== undefined ? { condition: p.condition } : {}),
      },
    ]
  })
  return list.length ? list : undefined
}

export const subscriptionByIdentifierRoutes = [
  defineRoute({
    method: 'GET',
    path,
    summary: 'One topic subscription by its identifier (204 when there is none)',
    tags,
    auth: 'apiKey',
    ...v2,
    params,
    responses: {
      200: { description: '{id, identifier, name?, preferences?, contextKeys?}, in data' },
      204: { description: 'No such subscription (or topic): an empty body' },
    },
    handler(c, { env, params }) {
      const found = find(env, params.topicKey, params.identifier)
      if (!found) return c.body(null, 204)
      return json(c, 200, {
        data: {
          id: found._id,
          identifier: found.identifier,
          name: found.name,
          preferences: preferenceView(env, found),
          contextKeys: found.contextKeys,
        },
      })
    },
  }),
  defineRoute<{ topicKey: string; identifier: string }, Obj, UpdateBodyValue>({
    method: 'PATCH',
    path,
    summary: 'Rename a topic subscription or replace its workflow preferences',
    tags,
    auth: 'apiKey',
    ...v2,
    params,
    body: UpdateBody,
    responses: {
      200: { description: 'The subscription, in data' },
      404: { description: 'No such topic, or no such subscription of it' },
    },
    handler(c, { env, params, body }) {
      const topic = env.topics.get(params.topicKey)
      if (!topic) throw topicNotFoundV2(params.topicKey)
      const found = find(env, params.topicKey, params.identifier)
      if (!found)
        throw httpError(
          404,
          `Subscription with identifier ${params.identifier} not found for topic ${params.topicKey}`
        )
      const at = env.now()
      const next: WithPreferences = {
        ...found,
        ...(body.name !== undefined ? { name: body.name } : {}),
        updatedAt: at,
      }
      let resolved = false
      if (body.preferences) {
        const preferences: SubscriptionPreference[] = []
        for (const item of body.preferences)
          for (const workflow of workflowsOf(env, item))
            preferences.push({
              workflowId: workflow._id,
              enabled: item.enabled !== false,
              ...(item.condition !== undefined ? { condition: item.condition } : {}),
            })
        next.preferences = preferences
        resolved = preferences.length > 0
      }
      env.topics.subscriptions.save([next])
      const subscriber = env.subscribers.byId(next._subscriberId)
      return json(c, 200, {
        data: {
          ...subscriptionResult(next, topic, subscriber, next),
          ...(resolved ? { preferences: preferenceView(env, next) } : {}),
        },
      })
    },
  }),
]
