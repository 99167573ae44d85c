// What the load generator sends: the three measured routes, and how the mock is set up for them.
import { call } from './harness.mjs'

export const TOPICS_PATH = '/v1/topics?page=0&pageSize=10'
export const KEYS = { get: 'bench-get', post: 'bench-post', put: 'bench-put' }
export const INACTIVE_RULES = 20
const GROUP_ID = '66fbb0a0c1f2e3d4a5b60001'

export const headersFor = (key, json) => ({
  Authorization: `ApiKey ${key}`,
  Accept: 'application/json',
  'User-Agent': 'novu-mock-bench',
  ...(json ? { 'Content-Type': 'application/json' } : {}),
})

/** A realistic create: three channels, a dozen {{variables}}, about 1 kB. Identical names are fine: upstream suffixes the identifier. */
export const WORKFLOW_BODY = JSON.stringify({
  name: 'Order shipped',
  notificationGroupId: GROUP_ID,
  description:
    'Tells the customer that the order left the warehouse, in the app, by email and by SMS.',
  tags: ['orders', 'shipping', 'transactional'],
  active: false,
  steps: [
    {
      name: 'In-app',
      template: {
        type: 'in_app',
        content: 'Hi {{subscriber.firstName}}, order {{orderId}} is on its way with {{carrier}}.',
        cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' } },
      },
    },
    {
      name: 'Email',
      template: {
        type: 'email',
        subject: 'Order {{orderId}} shipped',
        preheader: 'Arriving {{eta}}',
        senderName: 'Shop',
        content: [
          { type: 'text', content: 'Hello {{subscriber.firstName}} {{subscriber.lastName}},' },
          {
            type: 'text',
            content: 'Your {{itemCount}} items left our warehouse on {{shippedAt}}.',
          },
          { type: 'button', content: 'Track {{trackingNumber}}', url: '{{trackingUrl}}' },
        ],
      },
    },
    {
      name: 'SMS',
      template: {
        type: 'sms',
        content:
          'Order {{orderId}} shipped via {{carrier}}, tracking {{trackingNumber}}. {{trackingUrl}}',
      },
    },
  ],
})

/**
 * WORKFLOW_BODY with a name and an in-app text of its own (`n` in both): a create that no cache
 * of an earlier body can serve, as a client creating many workflows sends.
 */
export function distinctWorkflowBody(n) {
  const body = JSON.parse(WORKFLOW_BODY)
  body.name = `Order shipped ${n}`
  body.steps[0].template.content = `Hi {{subscriber.firstName}}, order ${n} of {{orderId}} is on its way.`
  return JSON.stringify(body)
}

/** Twenty rules that match nothing: what every /v1 request pays for an idle chaos set-up. */
export async function addInactiveRules(url) {
  for (let i = 0; i < INACTIVE_RULES; i++) {
    const res = await call(url, 'POST', '/__admin/rules', {
      body: {
        description: `bench rule ${i}, never matches`,
        match: { method: i % 2 ? 'GET' : ['POST', 'PUT'], path: `/v1/never-${i}/:id` },
        fault: { status: 503 },
      },
    })
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`adding a rule failed: ${res.status} ${res.bytes}`)
  }
}

export async function createWorkflow(url, key) {
  const res = await call(url, 'POST', '/v1/workflows', { key, body: JSON.parse(WORKFLOW_BODY) })
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.bytes}`)
  return JSON.parse(res.bytes.toString()).data._id
}

/**
 * PUT status, never the same status twice: each connection takes an idle workflow, activates it,
 * deactivates it, and gives it back once that answer is in.
 */
export function statusRequests(ids, key) {
  const idle = [...ids]
  const headers = headersFor(key, true)
  const put = (active) => (req, context) => ({
    ...req,
    method: 'PUT',
    path: `/v1/workflows/${context.id}/status`,
    headers,
    body: active ? '{"active":true}' : '{"active":false}',
  })
  return [
    {
      setupRequest(req, context) {
        context.id = idle.pop()
        return put(true)(req, context)
      },
    },
    { setupRequest: put(false), onResponse: (_s, _b, context) => idle.push(context.id) },
  ]
}

/**
 * The autocannon options of each measured route. `prepare(url)` runs on the mock before each
 * round (and hands back what the round needs); the bare app gets the same requests. POST comes
 * last: it stores every workflow it creates, and the memory it takes is not given back.
 */
export const ROUTES = {
  get: {
    label: 'GET /v1/topics?page=0&pageSize=10',
    target: 0.8,
    options: () => ({ method: 'GET', path: TOPICS_PATH, headers: headersFor(KEYS.get) }),
  },
  put: {
    label: 'PUT /v1/workflows/:id/status',
    target: 0.6,
    async prepare(url, connections) {
      await call(url, 'POST', `/__admin/reset?apiKey=${KEYS.put}`)
      const ids = []
      for (let i = 0; i < connections; i++) ids.push(await createWorkflow(url, KEYS.put))
      return ids
    },
    options: (ids) => ({ requests: statusRequests(ids, KEYS.put) }),
  },
  post: {
    label: 'POST /v1/workflows (1 kB, 3 steps)',
    target: 0.6,
    // Drops what the last round created, so memory and the store stay as after start-up.
    prepare: (url) => call(url, 'POST', `/__admin/reset?apiKey=${KEYS.post}`),
    options: () => ({
      method: 'POST',
      path: '/v1/workflows',
      headers: headersFor(KEYS.post, true),
      body: WORKFLOW_BODY,
    }),
  },
}

/** The exact bytes the mock answers on each route, for the bare app to serve. */
export async function captureRoutes(url) {
  const [id] = await ROUTES.put.prepare(url, 1)
  const captured = {
    get: await call(url, 'GET', TOPICS_PATH, { key: KEYS.get }),
    post: await call(url, 'POST', '/v1/workflows', {
      key: KEYS.post,
      body: JSON.parse(WORKFLOW_BODY),
    }),
    put: await call(url, 'PUT', `/v1/workflows/${id}/status`, {
      key: KEYS.put,
      body: { active: true },
    }),
  }
  const paths = { get: '/v1/topics', post: '/v1/workflows', put: '/v1/workflows/:id/status' }
  const methods = { get: 'GET', post: 'POST', put: 'PUT' }
  return Object.entries(captured).map(([name, res]) => ({
    name,
    method: methods[name],
    path: paths[name],
    status: res.status,
    contentType: res.contentType,
    bytes: res.bytes.length,
    body: res.bytes.toString('base64'),
  }))
}

/** Requests spread over `count` API keys, one after the other, for the many-environments run. */
export function manyKeyRequests(count, prefix = 'bench-env-') {
  let next = 0
  return [
    {
      setupRequest: (req) => ({
        ...req,
        method: 'GET',
        path: TOPICS_PATH,
        headers: headersFor(`${prefix}${next++ % count}`),
      }),
    },
  ]
}
