import { httpError } from '../errors.js'
import { deliveryView } from '../webhooks/delivery-log.js'
import { redactKey } from '../http/redact.js'
import { defineRoute, type AnyRoute } from '../http/route.js'
import type { MockState } from '../state.js'

type State = Pick<MockState, 'environments' | 'events' | 'journal'>
import type { ControlEvent } from './control-events.js'
import { messageItem } from './messages.routes.js'

/** Streams open at once: past it, a new one is refused (each holds a queue and a socket). */
export const MAX_EVENT_CLIENTS = 32
/** Events queued for one client that does not read: past it, its stream ends with `overflow`. */
export const MAX_QUEUED_EVENTS = 1000
/** A comment this often keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 15_000

const encoder = new TextEncoder()

/** One event in the text/event-stream format: its id, its name and its data as one JSON line. */
const frame = (id: number, name: string, data: unknown) =>
  encoder.encode(`id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`)

/** What a control event says on the stream: built once, whatever the number of clients. */
function payloadOf(state: State, event: ControlEvent): unknown {
  switch (event.type) {
    case 'message': {
      const env = state.environments.peek(event.apiKey)
      const message = env?.messages.find(event.messageId)
      return env && message ? messageItem({ apiKey: event.apiKey, env, message }) : undefined
    }
    case 'request': {
      const [entry] = state.journal.list({ limit: 1 })
      return entry?.id === event.id ? entry : undefined
    }
    case 'webhook':
      return deliveryView(event.delivery)
    case 'reset':
      return event.apiKey === undefined ? {} : { apiKey: redactKey(event.apiKey) }
    default:
      return {}
  }
}

/**
 * The control plane as a server-sent event stream: `request` (a journal entry, as
 * `GET /__admin/requests` shows it), `message` (as `GET /__admin/messages` shows it), `rules`
 * (the rules changed), `reset` (a reset, a scenario load or a state import), `webhook` (a
 * delivery attempt, as `GET /__admin/webhooks/deliveries` shows it). Nothing listens to
 * the mock while no stream is open; each stream is bounded, and so is their number.
 */
export function eventRoutes(state: State): AnyRoute[] {
  const clients = new Set<ReadableStreamDefaultController<Uint8Array>>()
  let unsubscribe: (() => void) | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let nextId = 1

  function drop(client: ReadableStreamDefaultController<Uint8Array>) {
    clients.delete(client)
    if (clients.size > 0) return
    unsubscribe?.()
    unsubscribe = undefined
    clearInterval(heartbeat)
    heartbeat = undefined
  }

  function end(client: ReadableStreamDefaultController<Uint8Array>, last?: Uint8Array) {
    try {
      if (last) client.enqueue(last)
      client.close()
    } catch {
      // Already closed by the client going away.
    }
    drop(client)
  }

  function send(bytes: Uint8Array) {
    for (const client of [...clients]) {
      // desiredSize counts the events queued and not yet read by the socket.
      if ((client.desiredSize ?? 0) <= 0) {
        end(client, frame(nextId++, 'overflow', { maxQueuedEvents: MAX_QUEUED_EVENTS }))
        continue
      }
      client.enqueue(bytes)
    }
  }

  function listen() {
    unsubscribe = state.events.subscribe((event) => {
      if (event.type === 'closing') {
        for (const client of [...clients]) end(client)
        return
      }
      const data = payloadOf(state, event)
      if (data !== undefined) send(frame(nextId++, event.type, data))
    })
    heartbeat = setInterval(() => send(encoder.encode(': heartbeat\n\n')), HEARTBEAT_MS)
    heartbeat.unref?.()
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/__admin/events',
      summary: 'The control plane as server-sent events: requests, messages, rules, resets',
      tags: ['admin'],
      auth: 'admin',
      responses: {
        200: {
          description:
            'text/event-stream; events request, message, rules, reset, webhook, overflow',
        },
        429: { description: `${MAX_EVENT_CLIENTS} streams are open already` },
      },
      handler(c) {
        if (clients.size >= MAX_EVENT_CLIENTS)
          throw httpError(429, `At most ${MAX_EVENT_CLIENTS} event streams may be open at once`)
        let self: ReadableStreamDefaultController<Uint8Array> | undefined
        const body = new ReadableStream<Uint8Array>(
          {
            start(controller) {
              self = controller
              clients.add(controller)
              if (!unsubscribe) listen()
              // A first line at once: the client knows the stream is open.
              controller.enqueue(encoder.encode('retry: 2000\n: connected\n\n'))
            },
            cancel() {
              if (self) drop(self)
            },
          },
          new CountQueuingStrategy({ highWaterMark: MAX_QUEUED_EVENTS })
        )
        c.req.raw.signal.addEventListener('abort', () => self && end(self))
        return new Response(body, {
          status: 200,
          headers: {
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache, no-transform',
            'X-Accel-Buffering': 'no',
          },
        })
      },
    }),
  ]
}
