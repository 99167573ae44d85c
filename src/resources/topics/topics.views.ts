import type { Subscriber } from '../subscribers/subscribers.store.js'
import type { Subscription, Topic } from './topics.store.js'

/** The v2 topic (upstream's `mapTopicEntityToDto`): `name` before `key`, absent when unset. */
export const topicDto = (topic: Topic) => ({
  _id: topic._id,
  name: topic.name,
  key: topic.key,
  createdAt: topic.createdAt,
  updatedAt: topic.updatedAt,
})

/** A subscription as the create and delete answers carry it. */
export function subscriptionResult(
  subscription: Subscription,
  topic: Pick<Topic, '_id' | 'key' | 'name'>,
  subscriber: Subscriber | undefined,
  dates: { createdAt: string; updatedAt: string }
) {
  return {
    _id: subscription._id,
    identifier: subscription.identifier,
    name: subscription.name,
    topic: { _id: topic._id, key: topic.key, name: topic.name },
    subscriber: subscriber
      ? {
          _id: subscriber._id,
          subscriberId: subscriber.subscriberId,
          avatar: subscriber.avatar,
          firstName: subscriber.firstName,
          lastName: subscriber.lastName,
          email: subscriber.email,
          createdAt: subscriber.createdAt,
          updatedAt: subscriber.updatedAt,
        }
      : null,
    contextKeys: subscription.contextKeys,
    createdAt: dates.createdAt,
    updatedAt: dates.updatedAt,
  }
}

/** A subscription as GET /v2/topics/{key}/subscriptions lists it (no `updatedAt`). */
export const listedSubscription = (
  subscription: Subscription,
  subscriber: Subscriber,
  topic: Topic
) => ({
  _id: subscription._id,
  identifier: subscription.identifier ?? '',
  topic: topicDto(topic),
  createdAt: subscription.createdAt,
  contextKeys: subscription.contextKeys,
  subscriber: {
    _id: subscriber._id,
    subscriberId: subscriber.subscriberId,
    firstName: subscriber.firstName,
    lastName: subscriber.lastName,
    email: subscriber.email,
    avatar: subscriber.avatar,
  },
})
