// The start-up floor of our stack: Node, Hono and @hono/node-server answering GET /v1/topics and
// /__admin/health with fixed bytes, printing a banner as the CLI does. Used by bench/startup.mjs.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const TOPICS = JSON.stringify({ page: 0, totalCount: 0, pageSize: 10, data: [] })
const app = new Hono()
app.get('/v1/topics', (c) => c.body(TOPICS, 200, { 'content-type': 'application/json' }))
app.get('/__admin/health', (c) =>
  c.body('{"status":"ok"}', 200, { 'content-type': 'application/json' })
)
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  process.stdout.write(`novu-mock bare listening on http://127.0.0.1:${info.port}\n`)
)
process.on('SIGTERM', () => process.exit(0))
