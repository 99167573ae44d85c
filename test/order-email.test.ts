// test/order-email.test.ts: the app's order flow, tested end to end
import { Novu } from '@novu/api'
import { createAdminClient } from 'novu-mock'
import { beforeEach, expect, inject, test } from 'vitest'

const baseUrl = inject('novuMockUrl')
const apiKey = 'order-email-test'
const admin = createAdminClient({ baseUrl }).forKey(apiKey)

// The code under test: confirms an order to the customer through Novu.
async function confirmOrder(order: { id: string; customer: string; email: string }) {
  const novu = new Novu({ secretKey: apiKey, serverURL: baseUrl })
  await novu.trigger({
    workflowId: 'order-confirmed',
    to: { subscriberId: order.customer, email: order.email },
    payload: { orderId: order.id, orderUrl: `https://shop.example/orders/${order.id}` },
  })
}

beforeEach(async () => {
  await admin.reset()
  // The workflow the app expects in Novu: an email with the order's link as a button.
  await fetch(`${baseUrl}/v1/workflows`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Order confirmed',
      notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
      active: true,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Order {{orderId}} is confirmed',
            content: [
              { type: 'text', content: 'Thank you for your order.' },
              { type: 'button', content: 'See your order', url: '{{orderUrl}}' },
            ],
          },
        },
      ],
    }),
  })
})

test('confirming an order emails the customer a link to it', async () => {
  await confirmOrder({ id: 'A-100', customer: 'ada', email: 'ada@example.com' })

  const email = await admin.waitForMessage({ workflow: 'order-confirmed', channel: 'email' })

  expect(email.email).toBe('ada@example.com')
  expect(email.rendered).toMatchObject({
    subject: 'Order A-100 is confirmed',
    links: ['https://shop.example/orders/A-100'],
  })
})
