import { type Obj } from '../objects.js'
import type { Environment } from '../tenancy/environment.js'
import type { Message } from '../resources/messages/messages.store.js'
import type { Notification } from '../resources/notifications/notifications.store.js'
import type { Subscriber } from '../resources/subscribers/subscribers.store.js'
import { ApiError } from '../errors.js'
import { jsonHeapBytes, textBytes } from '../memory/estimate.js'
import { NO_ACTION } from './message-document.js'
import { RenderError } from './languages/handlebars.js'

/**
 * What a trigger renders is counted as it is stored. The trigger's estimate (worker.ts) counts
 * each message at its step's texts; a message whose rendered texts are longer (a loop over the
 * payload, a long value) asks the memory budget for the difference before it is stored. Within
 * a trigger the budget's refusal stops it, and everything it wrote is taken back (the scope
 * below), so a refused trigger leaves the environment as it was. A step the clock runs later (a
 * delay or digest ended) has no request to refuse: its message is not stored, and the job
 * records why, as upstream's worker records a failed step.
 */

/**
 * The characters of a step's texts, which its messages hold rendered. Counted on every use: a
 * cache of it saved under 1% of a trigger (bench/caches.mjs, docs/benchmarks.md).
 */
export function stepTextBytes(step: object): number {
  const { content, subject, title } = ((step as Obj).template ?? {}) as Obj
  let bytes = 0
  for (const text of [content, subject, title])
    if (text !== undefined)
      bytes += typeof text === 'string' ? text.length : JSON.stringify(text).length
  return bytes
}

/** What one message document keeps besides its texts (480 bytes measured with bench/budget.mjs). */
export const MESSAGE_BYTES = 520
/** A subscriber a trigger creates: its record and indexes (600 bytes measured with its texts). */
const CREATED_SUBSCRIBER_BYTES = 750

/** The characters of the texts in a value (a text, an email's blocks, a cta), walked without recursion. */
function textsIn(value: unknown): number {
  let bytes = 0
  const stack = [value]
  while (stack.length) {
    const item = stack.pop()
    if (typeof item === 'string') bytes += textBytes(item)
    else if (item !== null && typeof item === 'object')
      for (const v of Object.values(item)) stack.push(v)
  }
  return bytes
}

/** The rendered texts a message keeps: content (or an email's blocks), subject, title, cta, data. */
function renderedBytes(fields: Obj): number {
  let bytes = textsIn(fields.content) + textsIn(fields.subject) + textsIn(fields.title)
  if (fields.cta !== undefined && fields.cta !== NO_ACTION) bytes += textsIn(fields.cta)
  if (fields.data !== undefined) bytes += jsonHeapBytes(fields.data)
  return bytes
}

/**
 * What a message takes beyond what the trigger's estimate counted for it: its texts past its
 * step's, and all of it when it is a further message of the same step (a chat or push step
 * sends one per channel of the subscriber).
 */
function excessOf(step: object, fields: Obj, further: boolean): number {
  const rendered = renderedBytes(fields)
  return further ? MESSAGE_BYTES + rendered : Math.max(0, rendered - stepTextBytes(step))
}

const WHAT = 'the records this trigger creates'

/** What one trigger has written so far, to take back if it is refused before it ends. */
export class TriggerScope {
  private excess = 0
  private readonly messages: Message[] = []
  private readonly notifications: Notification[] = []
  private readonly created: Subscriber[] = []
  private readonly previous = new Map<Subscriber, Obj>()

  constructor(
    private readonly env: Environment,
    /** The estimate admitted before the first write. */
    private readonly reserved: number
  ) {}

  /** Everything the trigger keeps: its estimate and what its messages took beyond it. */
  get bytes() {
    return this.reserved + this.excess
  }

  admit(bytes: number) {
    if (bytes <= 0) return
    this.excess += bytes
    this.env.memory.admit(this.bytes, WHAT)
  }

  stored(message: Message) {
    this.messages.push(message)
  }

  added(notification: Notification) {
    this.notifications.push(notification)
  }

  /** A subscriber the trigger created. */
  createdSubscriber(subscriber: Subscriber) {
    this.created.push(subscriber)
    this.admit(CREATED_SUBSCRIBER_BYTES)
  }

  /** A subscriber the trigger is about to change: its fields as they were, kept once. */
  changing(subscriber: Subscriber) {
    if (this.previous.has(subscriber)) return
    const fields: Obj = { ...subscriber }
    if (Array.isArray(subscriber.channels))
      fields.channels = (subscriber.channels as Obj[]).map((channel) => ({ ...channel }))
    this.previous.set(subscriber, fields)
  }

  /** Takes back what the trigger wrote, newest first. */
  revert() {
    const { env } = this
    env.messages.discard(this.messages)
    env.notifications.discard(this.notifications)
    for (const [subscriber, fields] of this.previous) {
      const record = subscriber as unknown as Obj
      for (const key of Object.keys(record)) if (!(key in fields)) delete record[key]
      Object.assign(record, fields)
    }
    for (const subscriber of this.created.reverse()) env.subscribers.remove(subscriber)
    env.subscribers.touch()
  }
}

/** The trigger running now (triggers run synchronously), or none: a step the clock ran. */
let current: TriggerScope | undefined

/** Runs `work` as the scope's trigger: when it throws, what it wrote is taken back. */
export function inTrigger<T>(scope: TriggerScope, work: () => T): T {
  const outer = current
  current = scope
  try {
    return work()
  } catch (error) {
    scope.revert()
    throw error
  } finally {
    current = outer
  }
}

/**
 * Counts a message before it is stored: within a trigger, against the trigger's estimate (a
 * refusal stops the trigger); otherwise on its own, and a refusal fails the step.
 */
export function admitMessage(env: Environment, step: object, fields: Obj, further: boolean) {
  const bytes = excessOf(step, fields, further)
  if (current) return current.admit(bytes)
  if (bytes <= 0) return
  try {
    env.memory.admit(bytes, 'the message this step renders')
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    throw new RenderError(error.message)
  }
  env.memory.grow(bytes)
}

/** Records a stored message in the running trigger, which takes it back if it is refused. */
export function recordMessage(message: Message) {
  current?.stored(message)
}
