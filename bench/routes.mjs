// The route families `npm run bench` measures, in both generations, each beside a bare Hono app
// that serves the bytes the mock answered. A route: how the mock is set up before each round
// (`prepare`), the autocannon options of a round (`options`), and the answer the bare app
// serves (`capture`, taken once on a mock set up the same way).
import { call } from './harness.mjs'
import { distinctWorkflowBody, headersFor, TOPICS_PATH, WORKFLOW_BODY } from './workloads.mjs'

export const GENERATIONS = ['2026-08', '2024-10']
const GROUP_ID = '66fbb0a0c1f2e3d4a5b60001'

/** What a dashboard or `@novu/api` create sends: an in-app and an email step with values. */
export const WORKFLOW_V2_BODY = JSON.stringify({
  name: 'Order shipped',
  workflowId: 'order-shipped',
  description: 'Tells the customer that the order left the warehouse.',
  tags: ['orders', 'shipping'],
  steps: [
    {
      name: 'In-app',
      type: 'in_app',
      controlValues: { body: 'Hi {{subscriber.firstName}}, order {{payload.orderId}} shipped.' },
    },
    {
      name: 'Email',
      type: 'email',
      controlValues: {
        subject: 'Order {{payload.orderId}} shipped',
        body: 'Hello {{subscriber.firstName}}, your order is on its way with {{payload.carrier}}.',
      },
    },
  ],
})

/** A trigger's workflow: one in-app and one email step. */
export const TRIGGER_WORKFLOW = {
  name: 'Order shipped (trigger)',
  notificationGroupId: GROUP_ID,
  active: true,
  steps: [
    { template: { type: 'in_app', content: 'Hi {{subscriber.firstName}}, {{orderId}} shipped' } },
    {
      template: {
        type: 'email',
        subject: 'Order {{orderId}} shipped',
        content: [
          { type: 'text', content: 'Hello {{subscriber.firstName}}, {{orderId}} is on its way.' },
        ],
      },
    },
  ],
}
export const TRIGGER_SUBSCRIBER = {
  subscriberId: 'bench-subscriber',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
}

const KEY = {
  getV1: 'bench-get',
  getV2: 'bench-get-v2',
  postV1: 'bench-post',
  postV2: 'bench-post-v2',
  put: 'bench-put',
  patch: 'bench-patch',
  trigger: 'bench-trigger',
  messages: 'bench-messages',
}

export async function ok(url, method, path, key, body, status = [200, 201]) {
  const res = await call(url, method, path, { key, body })
  if (!status.includes(res.status))
    throw new Error(`${method} ${path}: ${res.status} ${res.bytes.toString().slice(0, 300)}`)
  return JSON.parse(res.bytes.toString() || 'null')
}

export const reset = (url, key) => call(url, 'POST', `/__admin/reset?apiKey=${key}`)

/**
 * Never the same change twice in a row: each connection takes an idle workflow, sends the first
 * body, then the second, and gives the workflow back once that answer is in.
 */
function toggleRequests(ids, key, method, pathOf, bodies) {
  const idle = [...ids]
  const headers = headersFor(key, true)
  const send = (body) => (req, context) => ({
    ...req,
    method,
    path: pathOf(context.id),
    headers,
    body,
  })
  return [
    {
      setupRequest(req, context) {
        context.id = idle.pop()
        return send(bodies[0])(req, context)
      },
    },
    { setupRequest: send(bodies[1]), onResponse: (_s, _b, context) => idle.push(context.id) },
  ]
}

async function createV1(url, key) {
  return (await ok(url, 'POST', '/v1/workflows', key, JSON.parse(WORKFLOW_BODY))).data._id
}
async function createV2(url, key) {
  return (await ok(url, 'POST', '/v2/workflows', key, JSON.parse(WORKFLOW_V2_BODY))).data._id
}

async function triggerSetUp(url, generation, key = KEY.trigger) {
  await reset(url, key)
  const created = await ok(url, 'POST', '/v1/workflows', key, TRIGGER_WORKFLOW)
  const subscribers = generation === '2024-10' ? '/v1/subscribers' : '/v2/subscribers'
  await ok(url, 'POST', subscribers, key, TRIGGER_SUBSCRIBER)
  return created.data.triggers[0].identifier
}

const triggerBody = (name) =>
  JSON.stringify({
    name,
    to: { subscriberId: TRIGGER_SUBSCRIBER.subscriberId },
    payload: { orderId: 'A-1042' },
  })

const MESSAGES_PATH = '/v1/messages?page=0&limit=10'

/** The bench's 1 kB create, the same body every time (the distinct route below varies it). */
const POST_V1_WORKFLOWS = {
  name: 'post-v1-workflows',
  label: 'POST /v1/workflows (1 kB, 3 steps)',
  target: 0.5,
  floor: 0.4,
  bare: { method: 'POST', path: '/v1/workflows' },
  prepare: (url) => reset(url, KEY.postV1),
  options: () => ({
    method: 'POST',
    path: '/v1/workflows',
    headers: headersFor(KEY.postV1, true),
    body: WORKFLOW_BODY,
  }),
}

/** The route families, in the order they run: reads first, then the writes that keep records. */
export const BENCH_ROUTES = [
  {
    name: 'get-v1-topics',
    label: 'GET /v1/topics?page=0&pageSize=10',
    target: 0.9,
    bare: { method: 'GET', path: '/v1/topics' },
    options: () => ({ method: 'GET', path: TOPICS_PATH, headers: headersFor(KEY.getV1) }),
  },
  {
    name: 'get-v2-topics',
    label: 'GET /v2/topics?limit=10 (first page)',
    target: 0.9,
    only: '2026-08',
    bare: { method: 'GET', path: '/v2/topics' },
    options: () => ({ method: 'GET', path: '/v2/topics?limit=10', headers: headersFor(KEY.getV2) }),
  },
  {
    name: 'get-v2-topics-cursor',
    label: 'GET /v2/topics?limit=10&after=… (cursor page)',
    target: 0.9,
    only: '2026-08',
    bare: { method: 'GET', path: '/v2/topics' },
    async prepare(url) {
      const first = await ok(url, 'GET', '/v2/topics?limit=10', KEY.getV2)
      return `/v2/topics?limit=10&after=${first.next}`
    },
    options: (path) => ({ method: 'GET', path, headers: headersFor(KEY.getV2) }),
  },
  {
    name: 'get-v1-messages',
    label: 'GET /v1/messages?page=0&limit=10 (100 stored)',
    target: 0.9,
    bare: { method: 'GET', path: '/v1/messages' },
    async prepare(url, _connections, generation) {
      const name = await triggerSetUp(url, generation, KEY.messages)
      for (let i = 0; i < 50; i++)
        await ok(url, 'POST', '/v1/events/trigger', KEY.messages, JSON.parse(triggerBody(name)))
    },
    options: () => ({ method: 'GET', path: MESSAGES_PATH, headers: headersFor(KEY.messages) }),
  },
  {
    name: 'put-v1-status',
    label: 'PUT /v1/workflows/:id/status',
    target: 0.7,
    bare: { method: 'PUT', path: '/v1/workflows/:id/status' },
    async prepare(url, connections) {
      await reset(url, KEY.put)
      const ids = []
      for (let i = 0; i < connections; i++) ids.push(await createV1(url, KEY.put))
      return ids
    },
    options: (ids) => ({
      requests: toggleRequests(ids, KEY.put, 'PUT', (id) => `/v1/workflows/${id}/status`, [
        '{"active":true}',
        '{"active":false}',
      ]),
    }),
  },
  {
    name: 'patch-v2-workflow',
    label: 'PATCH /v2/workflows/:id {active}',
    target: 0.5,
    floor: 0.4,
    only: '2026-08',
    bare: { method: 'PATCH', path: '/v2/workflows/:id' },
    async prepare(url, connections) {
      await reset(url, KEY.patch)
      const ids = []
      for (let i = 0; i < connections; i++) ids.push(await createV2(url, KEY.patch))
      return ids
    },
    options: (ids) => ({
      requests: toggleRequests(ids, KEY.patch, 'PATCH', (id) => `/v2/workflows/${id}`, [
        '{"active":false}',
        '{"active":true}',
      ]),
    }),
  },
  {
    name: 'trigger',
    label: 'POST /v1/events/trigger (1 subscriber, 2 channel steps)',
    target: 0.3,
    bare: { method: 'POST', path: '/v1/events/trigger' },
    // Each round starts from an empty key: what triggers store is not given back otherwise.
    prepare: (url, _connections, generation) => triggerSetUp(url, generation),
    options: (name) => ({
      method: 'POST',
      path: '/v1/events/trigger',
      headers: headersFor(KEY.trigger, true),
      body: triggerBody(name),
    }),
  },
  {
    name: 'post-v2-workflows',
    label: 'POST /v2/workflows (2 steps with values)',
    target: 0.5,
    floor: 0.4,
    only: '2026-08',
    bare: { method: 'POST', path: '/v2/workflows' },
    prepare: (url) => reset(url, KEY.postV2),
    options: () => ({
      method: 'POST',
      path: '/v2/workflows',
      headers: headersFor(KEY.postV2, true),
      body: WORKFLOW_V2_BODY,
    }),
  },
  POST_V1_WORKFLOWS,
  {
    ...POST_V1_WORKFLOWS,
    name: 'post-v1-workflows-distinct',
    label: 'POST /v1/workflows (1 kB, 3 steps, a body that differs on every request)',
    options: () => {
      const headers = headersFor(KEY.postV1, true)
      let next = 0
      const setupRequest = (req) => ({
        ...req,
        method: 'POST',
        path: '/v1/workflows',
        headers,
        body: distinctWorkflowBody(next++),
      })
      return { requests: [{ setupRequest }] }
    },
  },
]

export const routesFor = (generation) =>
  BENCH_ROUTES.filter((route) => !route.only || route.only === generation)

/**
 * The answer of one request of the route, on a mock set up as for a round: what the bare app
 * serves in its place, byte for byte.
 */
export async function captureRoute(url, route, generation) {
  const prepared = await route.prepare?.(url, 1, generation)
  const options = route.options(prepared)
  let { method, path, headers, body } = options
  if (options.requests) {
    const first = options.requests[0].setupRequest({}, {})
    ;({ method, path, headers, body } = first)
  }
  const res = await fetch(url + path, { method, headers, body })
  const bytes = Buffer.from(await res.arrayBuffer())
  if (res.status >= 300)
    throw new Error(`${route.label}: ${res.status} ${bytes.toString().slice(0, 300)}`)
  const query = path.includes('?') ? path.slice(path.indexOf('?')) : ''
  return {
    name: route.name,
    method: route.bare.method,
    path: route.bare.path,
    query,
    status: res.status,
    contentType: res.headers.get('content-type'),
    bytes: bytes.length,
    body: bytes.toString('base64'),
  }
}
