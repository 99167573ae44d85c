// What bench/caches.mjs measures each cache on: the route families of bench/routes.mjs, and
// workloads (in the shape of a route family) for the caches that no family reaches.
import { call } from './harness.mjs'
import { ok, reset, routesFor, TRIGGER_SUBSCRIBER, WORKFLOW_V2_BODY } from './routes.mjs'
import { headersFor, TOPICS_PATH, WORKFLOW_BODY } from './workloads.mjs'

const KEY = 'bench-caches'
const get =
  (path, key = KEY) =>
  () => ({ method: 'GET', path, headers: headersFor(key) })

/** A fresh key holding one workflow made from `body` on `path`: its id. */
async function oneWorkflow(url, path, body) {
  await reset(url, KEY)
  return (await ok(url, 'POST', path, KEY, JSON.parse(body))).data._id
}

/** A fresh key holding the bench's v1 workflow three times (the last two kept as frames): the last's id. */
async function frameWorkflow(url) {
  await oneWorkflow(url, '/v1/workflows', WORKFLOW_BODY)
  await ok(url, 'POST', '/v1/workflows', KEY, JSON.parse(WORKFLOW_BODY))
  return (await ok(url, 'POST', '/v1/workflows', KEY, JSON.parse(WORKFLOW_BODY))).data._id
}

/** A fresh key holding ten topics, orders-0 to orders-9. */
async function tenTopics(url) {
  await reset(url, KEY)
  for (let i = 0; i < 10; i++)
    await ok(url, 'POST', '/v1/topics', KEY, { key: `orders-${i}`, name: `Orders ${i}` })
}

/** A /v2 workflow whose texts need Liquid itself (a filter, a tag), not plain {{names}}. */
const LIQUID_WORKFLOW = JSON.stringify({
  name: 'Order shipped (Liquid)',
  workflowId: 'order-shipped-liquid',
  steps: [
    {
      name: 'In-app',
      type: 'in_app',
      controlValues: {
        body: '{% if payload.carrier %}Order {{ payload.orderId | upcase }} left with {{ payload.carrier }}.{% endif %}',
      },
    },
    {
      name: 'Email',
      type: 'email',
      controlValues: {
        subject: 'Order {{ payload.orderId | upcase }} shipped',
        body: 'Hello {{ subscriber.firstName | default: "there" }}, your order is on its way.',
      },
    },
  ],
})

export const EXTRA_WORKLOADS = [
  {
    name: 'get-v1-workflow',
    label: 'GET /v1/workflows/:id (the bench 1 kB body, sent three times: kept as a frame)',
    bare: { method: 'GET' },
    prepare: frameWorkflow,
    options: (id) => get(`/v1/workflows/${id}`)(),
  },
  {
    name: 'get-v2-workflow',
    label: 'GET /v2/workflows/:id (2 steps with values)',
    only: '2026-08',
    bare: { method: 'GET' },
    prepare: (url) => oneWorkflow(url, '/v2/workflows', WORKFLOW_V2_BODY),
    options: (id) => get(`/v2/workflows/${id}`)(),
  },
  {
    name: 'trigger-v2',
    label: 'POST /v1/events/trigger of a /v2 workflow (Liquid)',
    only: '2026-08',
    bare: { method: 'POST' },
    async prepare(url) {
      await oneWorkflow(url, '/v2/workflows', LIQUID_WORKFLOW)
      await ok(url, 'POST', '/v2/subscribers', KEY, TRIGGER_SUBSCRIBER)
    },
    options: () => ({
      method: 'POST',
      path: '/v1/events/trigger',
      headers: headersFor(KEY, true),
      body: JSON.stringify({
        name: 'order-shipped-liquid',
        to: { subscriberId: TRIGGER_SUBSCRIBER.subscriberId },
        payload: { orderId: 'A-1042', carrier: 'Parcelforce' },
      }),
    }),
  },
  {
    name: 'get-v1-topic',
    label: 'GET /v1/topics/:key (one of 10 topics stored)',
    bare: { method: 'GET' },
    prepare: tenTopics,
    options: get('/v1/topics/orders-3'),
  },
  {
    // The HTTP bench toggles 50 workflows made from one body (all but the first kept as frames);
    // a family in process makes one, kept as objects: `workflow own renders` needs this one.
    name: 'put-v1-status-frame',
    label: 'PUT /v1/workflows/:id/status of a workflow kept as a frame (its body sent three times)',
    bare: { method: 'PUT' },
    prepare: frameWorkflow,
    options: (id) => ({
      requests: ['{"active":true}', '{"active":false}'].map((body) => ({
        method: 'PUT',
        path: `/v1/workflows/${id}/status`,
        headers: headersFor(KEY, true),
        body,
      })),
    }),
  },
  {
    // A write changes the list's version, so `list answers` misses on the page after it: the
    // nine topics left as they were are what `topic JSON` serves.
    name: 'get-v1-topics-after-rename',
    label: 'GET /v1/topics (10 stored) after each rename of one of them',
    bare: { method: 'PATCH' },
    prepare: tenTopics,
    options: () => ({
      requests: ['Orders (EU)', 'Orders (US)'].flatMap((name) => [
        {
          method: 'PATCH',
          path: '/v1/topics/orders-3',
          headers: headersFor(KEY, true),
          body: JSON.stringify({ name }),
        },
        get(TOPICS_PATH)(),
      ]),
    }),
  },
  {
    name: 'dashboard-asset',
    label: 'GET /__admin/ui/assets/dashboard.js',
    bare: { method: 'GET' },
    options: get('/__admin/ui/assets/dashboard.js'),
  },
  {
    // Last: the rules it adds stay for the rest of the run.
    name: 'wildcard-rules',
    label: 'GET /v1/topics beside 20 inactive rules on /v1/*/… paths (each cuts the path)',
    bare: { method: 'GET' },
    async prepare(url) {
      const res = await call(url, 'GET', '/__admin/rules')
      if (res.bytes.includes('bench wildcard rule')) return
      for (let i = 0; i < 20; i++)
        await ok(url, 'POST', '/__admin/rules', undefined, {
          description: `bench wildcard rule ${i}, never matches`,
          match: { method: 'GET', path: `/v1/*/never-${i}` },
          fault: { status: 503 },
        })
    },
    options: get(TOPICS_PATH),
  },
]

export const familiesFor = (generation) => [
  ...routesFor(generation),
  ...EXTRA_WORKLOADS.filter((w) => !w.only || w.only === generation),
]
