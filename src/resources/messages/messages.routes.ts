import { z } from 'zod'
import { badRequest, InternalError, notFound } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { json, jsonAnswer, queryText } from '../../http/respond.js'
import { cachedAnswer } from '../../http/answer-cache.js'
import type { Message } from './messages.store.js'
import type { MessagesRules } from './messages.generations.js'
import {
  ListMessagesQuerySchema,
  MessageIdParamsSchema,
  MessageListSchema,
  TransactionParamsSchema,
} from './messages.schemas.js'
import { lazySchema } from '../../lazy-schema.js'

const tags = ['Messages']
const MAX_MESSAGE_LIMIT = 1000

/** A message as `GET /v1/messages` lists it. */
export const renderMessage = (m: Message, rules: MessagesRules) => ({
  ...m,
  subscriber: rules.subscriber(m.subscriber),
  actorSubscriber: null,
  id: m._id,
})

const asList = (value: unknown): string[] | undefined =>
  value === undefined || value === ''
    ? undefined
    : Array.isArray(value)
      ? value.map(String)
      : [String(value)]

export const messageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/messages',
    summary: 'List messages, newest first, filtered by channel, subscriber or transaction',
    tags,
    auth: 'apiKey',
    query: ListMessagesQuerySchema,
    numericQuery: ['page', 'limit'],
    responses: {
      200: { description: 'A page of messages (not wrapped in data)', schema: MessageListSchema },
    },
    handler(c, { env, query }) {
      // Upstream reads 0 and a missing value alike, as the default.
      const page = query.page || 0
      const limit = query.limit || 10
      if (limit > MAX_MESSAGE_LIMIT) throw badRequest('Limit can not be larger then 1000')
      if (page < 0) throw new InternalError('MongoDB refuses a negative skip')
      const subscriberId =
        typeof query.subscriberId === 'string' && query.subscriberId
          ? query.subscriberId
          : undefined
      const rules = env.generation.messages
      if (subscriberId && !env.messages.hasSubscriber(subscriberId))
        throw rules.unknownSubscriber(subscriberId)
      const channel = typeof query.channel === 'string' && query.channel ? query.channel : undefined
      const transactionIds = asList(query.transactionId)
      // The page is built once per version of the messages and their subscribers (the list
      // shows each subscriber as it is now): see answer-cache.ts.
      const answer = cachedAnswer(
        [env.messages, env.subscribers],
        'GET /v1/messages',
        // The query's text: the page, the limit and the filters are all made from it.
        queryText(c),
        () => {
          const matching = env.messages.list({ channel, subscriberId, transactionIds })
          const size = Math.abs(Math.trunc(limit))
          const start = Math.trunc(page * limit)
          const data = matching.slice(start, start + size).map((m) => renderMessage(m, rules))
          const totalCount = matching.totalCount
          return JSON.stringify({
            page,
            totalCount,
            hasMore: start + data.length < totalCount,
            pageSize: limit,
            data,
          })
        }
      )
      return jsonAnswer(c, 200, answer)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/messages/transaction/:transactionId',
    summary: 'Delete the messages of a transaction, optionally of one channel',
    tags,
    auth: 'apiKey',
    params: TransactionParamsSchema,
    query: (g) => g.messages.deleteByTransactionQuery,
    responses: {
      204: { description: 'Deleted (also when the channel matches none of them)' },
      404: { description: 'The transaction has no live messages' },
    },
    handler(c, { env, params, query }) {
      // The existence check ignores the channel: only a transaction with no live message is a 404.
      if (env.messages.liveByTransaction(params.transactionId).length === 0)
        throw notFound('Invalid transactionId or channel')
      const { hardDelete } = env.generation.messages
      env.messages.removeByTransactionId(params.transactionId, query.channel, env.now(), hardDelete)
      return c.body(null, 204)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/messages/:messageId',
    summary: 'Delete one message',
    tags,
    auth: 'apiKey',
    params: MessageIdParamsSchema,
    responses: {
      200: {
        description: 'Deleted',
        schema: lazySchema(() =>
          z.object({
            data: z.object({ acknowledged: z.literal(true), status: z.literal('deleted') }),
          })
        ),
      },
      404: { description: 'No such message' },
    },
    handler(c, { env, params }) {
      if (!env.messages.remove(params.messageId, env.now(), env.generation.messages.hardDelete))
        throw notFound(`Message with id ${params.messageId} not found`)
      return json(c, 200, { data: { acknowledged: true, status: 'deleted' } })
    },
  }),
]
