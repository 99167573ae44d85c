import { textBytes } from '../memory/estimate.js'
import { redactKey, redactUrl } from '../http/redact.js'

type Outcome = 'delivered' | 'retrying' | 'failed' | 'dropped'

/** One attempt to deliver one event to one endpoint, or a delivery dropped before any. */
export interface DeliveryRecord {
  id: number
  /** Wall-clock time of the attempt. */
  at: string
  /** The key's clock at the attempt: what the retry schedule runs on. */
  clockAt: string
  apiKey: string
  endpointId: string
  url: string
  eventId: string
  webhookId: string
  type: string
  attempt: number
  /** The receiver's HTTP status; null when none came (refused, timed out, dropped). */
  status: number | null
  error?: string
  durationMs: number
  outcome: Outcome
  /** When the next attempt is due on the key's clock (outcome `retrying`). */
  nextAttemptAt?: string
  body: string
  bodyTruncated?: boolean
}

export interface DeliveryFilter {
  apiKey?: string
  endpoint?: string
  type?: string
  eventId?: string
  /** An outcome, an HTTP status (`500`) or a class (`5xx`). */
  status?: string
  limit?: number
}

/** Attempts the log keeps (oldest go first), and the body each keeps, as the journal bounds. */
const DELIVERY_LOG_SIZE = 1000
const LOGGED_BODY_CHARS = 16 * 1024
/** An entry's fields besides its body. */
const ENTRY_BYTES = 600

function statusMatches(record: DeliveryRecord, wanted: string): boolean {
  if (/^[1-5]xx$/i.test(wanted))
    return record.status !== null && Math.floor(record.status / 100) === Number(wanted[0])
  if (/^\d+$/.test(wanted)) return record.status === Number(wanted)
  return record.outcome === wanted
}

const matches = (r: DeliveryRecord, f: DeliveryFilter) =>
  (f.apiKey === undefined || r.apiKey === f.apiKey) &&
  (f.endpoint === undefined || r.endpointId === f.endpoint) &&
  (f.type === undefined || r.type === f.type) &&
  (f.eventId === undefined || r.eventId === f.eventId) &&
  (f.status === undefined || statusMatches(r, f.status))

/** A record as the control plane shows it: the key and the URL's secrets redacted, as the journal does. */
export const deliveryView = (r: DeliveryRecord) => ({
  ...r,
  apiKey: redactKey(r.apiKey),
  url: redactUrl(r.url),
})

/** A bounded log of delivery attempts: memory stays flat whatever a dead endpoint does. */
export function createDeliveryLog(capacity = DELIVERY_LOG_SIZE) {
  let records: DeliveryRecord[] = []
  let bytes = 0
  let nextId = 1
  const sizeOf = (r: DeliveryRecord) => ENTRY_BYTES + textBytes(r.body) + textBytes(r.url)
  return {
    capacity,
    add(record: Omit<DeliveryRecord, 'id' | 'bodyTruncated'>): DeliveryRecord {
      const cut = record.body.length > LOGGED_BODY_CHARS
      const entry: DeliveryRecord = {
        ...record,
        id: nextId++,
        body: cut ? record.body.slice(0, LOGGED_BODY_CHARS) : record.body,
        ...(cut ? { bodyTruncated: true } : {}),
      }
      records.push(entry)
      bytes += sizeOf(entry)
      if (records.length > capacity) bytes -= sizeOf(records.shift() as DeliveryRecord)
      return entry
    },
    /** Newest first. */
    search(filter: DeliveryFilter) {
      const found = records.filter((r) => matches(r, filter)).reverse()
      return { data: found.slice(0, filter.limit ?? 100), totalCount: found.length }
    },
    clear(apiKey?: string) {
      const before = records.length
      records = apiKey === undefined ? [] : records.filter((r) => r.apiKey !== apiKey)
      bytes = records.reduce((sum, r) => sum + sizeOf(r), 0)
      return before - records.length
    },
    bytes: () => bytes,
  }
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>
