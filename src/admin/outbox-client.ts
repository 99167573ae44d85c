/** The admin client's view of `GET /__admin/messages`: the messages the mock "sent", rendered. */

type MessageChannel = 'in_app' | 'email' | 'sms' | 'chat' | 'push' | 'tool'

export interface MessageFilter {
  apiKey?: string
  subscriberId?: string
  /** The workflow's trigger identifier. */
  workflow?: string
  transactionId?: string
  channel?: MessageChannel
  /** ISO time: messages created at or after it. */
  since?: string
  /** Text the subject or body contains, case-insensitive. */
  q?: string
  limit?: number
  page?: number
}

/** What the message's channel provider would have been handed. */
export type RenderedOutput =
  | {
      channel: 'email'
      subject: string
      html: string
      /** The HTML as plain text, each link as `label (url)`. */
      text: string
      /** Every href of the HTML, in order. */
      links: string[]
    }
  | { channel: 'sms' | 'chat'; text: string }
  | { channel: 'push'; title: string; body: string }
  | { channel: 'in_app'; content: string; subject?: string; cta: unknown }

/** A message as `GET /v1/messages` lists it, its API key (redacted) and its rendered output. */
export interface OutboxMessage {
  _id: string
  channel: MessageChannel
  templateIdentifier: string
  transactionId: string
  subscriber: { subscriberId: string; [field: string]: unknown }
  status: string
  createdAt: string
  apiKey: string
  rendered: RenderedOutput
  [field: string]: unknown
}

export interface OutboxPage {
  data: OutboxMessage[]
  page: number
  pageSize: number
  totalCount: number
  hasMore: boolean
}

type Call = <T>(method: string, path: string) => Promise<T>

/** `?name=value&…` of the filter's set fields; '' when none is. */
export const query = (filter: Record<string, unknown>) => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(filter))
    if (value !== undefined) params.set(name, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** The mock holds a wait for at most 30 s; longer timeouts wait again. */
const MAX_WAIT_MS = 30_000

/** The client's message methods, over its `call`. */
export function outboxMethods(call: Call) {
  const messages = async (filter: MessageFilter = {}) =>
    (await call<OutboxPage>('GET', `/messages${query({ ...filter })}`)).data
  return {
    /** The messages that match, newest first, each with its rendered output. */
    messages,
    /**
     * The newest message that matches, once there is one: the mock holds the request until a
     * message matches (no polling). Rejects after `timeoutMs` (default 5 s) with none.
     */
    async waitForMessage(
      filter: MessageFilter = {},
      { timeoutMs = 5000 }: { timeoutMs?: number } = {}
    ): Promise<OutboxMessage> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const left = Math.max(0, Math.min(deadline - Date.now(), MAX_WAIT_MS))
        const page = await call<OutboxPage>(
          'GET',
          `/messages${query({ ...filter, limit: 1, wait: Math.round(left) })}`
        )
        const found = page.data[0]
        if (found) return found
        if (Date.now() >= deadline)
          throw new Error(
            `no message matched ${JSON.stringify(filter)} within ${timeoutMs} ms (novu-mock)`
          )
      }
    },
  }
}
