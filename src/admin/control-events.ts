import type { DeliveryRecord } from '../webhooks/delivery-log.js'

/**
 * What happens in the control plane, for whoever listens: the event stream
 * (`GET /__admin/events`), a test waiting for a message, the dashboard. With no listener an
 * emit is one size check, so the mock pays nothing for them until someone listens.
 */
export type ControlEvent =
  | { type: 'message'; apiKey: string; messageId: string }
  | { type: 'request'; id: number }
  | { type: 'rules' }
  | { type: 'reset'; apiKey?: string }
  /** A webhook delivery attempt, or a delivery dropped. */
  | { type: 'webhook'; delivery: DeliveryRecord }
  /** The server is closing: streams end, held requests answer. */
  | { type: 'closing' }

export type ControlListener = (event: ControlEvent) => void

export function createControlEvents() {
  const listeners = new Set<ControlListener>()
  return {
    /** Whether anyone listens: an emitter that must build its event first asks this. */
    get active() {
      return listeners.size > 0
    },
    emit(event: ControlEvent) {
      if (listeners.size === 0) return
      // A copy: a listener may unsubscribe itself (a wait that is satisfied).
      for (const listener of [...listeners]) listener(event)
    },
    /** Returns the unsubscribe. */
    subscribe(listener: ControlListener): () => void {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    get size() {
      return listeners.size
    },
  }
}

export type ControlEvents = ReturnType<typeof createControlEvents>

/**
 * What one finished request tells the listeners: a Novu request its journal entry (by id, read
 * when wanted), a control-plane write what it changed. Called only while someone listens.
 */
export function announceRequest(
  events: ControlEvents,
  request: { method: string; path: string; query: (name: string) => string | undefined },
  status: number,
  entryId: number | undefined
) {
  const { method, path } = request
  if (!path.startsWith('/__admin')) {
    if (entryId !== undefined) events.emit({ type: 'request', id: entryId })
    return
  }
  if (method === 'GET' || status >= 400) return
  if (path.startsWith('/__admin/rules')) events.emit({ type: 'rules' })
  else if (/^\/__admin\/(reset|scenario|state)\/?$/.test(path)) {
    const apiKey = request.query('apiKey')
    events.emit(apiKey === undefined ? { type: 'reset' } : { type: 'reset', apiKey })
  }
}
