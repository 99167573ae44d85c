import { z } from 'zod'
import { badRequest, isKnownError } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json } from '../../http/respond.js'
import type { TriggerResult } from './events.generations.js'
import {
  TransactionParamsSchema,
  TriggerResultSchema,
  type BroadcastBody,
  type BulkBody,
  type TriggerBody,
} from './events.schemas.js'
import { cancelTransaction } from '../../delivery/jobs.js'
import { noteOnRequest } from '../../http/notes.js'
import { parseEvent } from './parse-event.js'
import { withRenderWork } from '../../delivery/render-work.js'
import { isObj, type Obj } from '../../objects.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['Events']
const asObject = (v: unknown): Obj => (isObj(v) ? v : {})

const wrapped = lazySchema(() => z.object({ data: TriggerResultSchema }))

export const eventRoutes = [
  defineRoute<Record<string, string>, Record<string, unknown>, TriggerBody>({
    method: 'POST',
    path: '/v1/events/trigger',
    summary:
      'Trigger a workflow for subscribers and topics; its notifications and messages are created before the answer',
    tags,
    auth: 'apiKey',
    body: (g) => g.events.triggerBody,
    sharedBody: true,
    responses: {
      201: { description: 'Acknowledged, with its status', schema: wrapped },
      422: { description: '`workflow_not_found`, or (2026-08) the body does not validate' },
    },
    handler(c, { env, body }) {
      const result = parseEvent(env, {
        name: body.name,
        addressing: 'multicast',
        to: body.to,
        // The controller defaults both: `body.payload || {}`, `body.overrides || {}`.
        payload: asObject(body.payload || {}),
        overrides: asObject(body.overrides || {}),
        transactionId: body.transactionId,
        actor: body.actor,
        tenant: body.tenant,
        agentId: body.agentId,
        note: (text) => noteOnRequest(c, text),
      })
      return json(c, 201, { data: result })
    },
  }),
  defineRoute<Record<string, string>, Record<string, unknown>, BulkBody>({
    method: 'POST',
    path: '/v1/events/trigger/bulk',
    summary: 'Trigger up to 100 events; each answers in order, an error in one spares the others',
    tags,
    auth: 'apiKey',
    body: (g) => g.events.bulkBody,
    responses: {
      201: {
        description: 'One result per event, in order',
        schema: lazySchema(() => z.object({ data: z.array(TriggerResultSchema) })),
      },
    },
    handler(c, { env, body }) {
      const rules = env.generation.events
      rules.checkBulkSize(body.events)
      // The events render on one allowance: the request's, not each event's.
      const results: TriggerResult[] = withRenderWork(() =>
        body.events.map((sent) => {
          const event = asObject(sent)
          try {
            const errors = rules.bulkEventErrors(event)
            if (errors) throw badRequest(errors)
            // Bulk passes `payload` as sent (the command requires it) and defaults `overrides`.
            return parseEvent(env, {
              name: event.name as string,
              addressing: 'multicast',
              to: event.to,
              payload: asObject(event.payload),
              overrides: asObject(event.overrides || {}),
              transactionId: event.transactionId as string | undefined,
              actor: event.actor,
              tenant: event.tenant,
              agentId: event.agentId,
              note: (text) => noteOnRequest(c, text),
            })
          } catch (error) {
            if (!isKnownError(error)) throw error
            return rules.bulkError(error, event)
          }
        })
      )
      return json(c, 201, { data: results })
    },
  }),
  defineRoute<Record<string, string>, Record<string, unknown>, BroadcastBody>({
    method: 'POST',
    path: '/v1/events/trigger/broadcast',
    summary: 'Trigger a workflow for every subscriber of the environment',
    tags,
    auth: 'apiKey',
    body: (g) => g.events.broadcastBody,
    responses: { 201: { description: 'Acknowledged', schema: wrapped } },
    handler(c, { env, body }) {
      const rules = env.generation.events
      // The older controller makes the id itself and always answers `processed` with it.
      const transactionId =
        body.transactionId ||
        (rules.broadcastReportsStatus
          ? undefined
          : rules.newTransactionId(env.rng, env.clock.now()))
      const result = parseEvent(env, {
        name: body.name,
        addressing: 'broadcast',
        payload: asObject(body.payload),
        overrides: asObject(body.overrides || {}),
        transactionId,
        actor: body.actor,
        tenant: body.tenant,
        agentId: body.agentId,
        note: (text) => noteOnRequest(c, text),
      })
      const data = rules.broadcastReportsStatus
        ? result
        : { acknowledged: true, status: 'processed', transactionId }
      return json(c, 201, { data })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/events/trigger/:transactionId',
    summary: "Cancel a transaction's pending delay or digest: true when one was waiting",
    tags,
    auth: 'apiKey',
    params: TransactionParamsSchema,
    responses: {
      200: {
        description: 'Whether anything was canceled',
        schema: lazySchema(() => z.object({ data: z.boolean() })),
      },
    },
    handler: (c, { env, params }) =>
      json(c, 200, { data: cancelTransaction(env, params.transactionId) }),
  }),
]
