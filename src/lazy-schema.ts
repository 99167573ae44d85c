import { z } from 'zod'

/**
 * A schema built on its first use instead of when its module is imported: building the zod
 * schemas of every route family, the rules and the scenarios took a fifth of a cold start, and a
 * start-up reaches few of them (the first request, the options). `z.lazy` builds once and then
 * delegates, so validation, messages and the JSON Schema of the OpenAPI document stay the same.
 */
export const lazySchema = <T extends z.ZodType>(build: () => T): z.ZodLazy<T> =>
  // Memoised here too: zod's own cache serves parsing, but `unwrap()` calls the getter again.
  z.lazy(once(build))

/** The schema a lazy one stands for (built now), or the schema itself. */
export function unwrapLazy(schema: z.ZodType): z.ZodType {
  let inner = schema
  while (inner instanceof z.ZodLazy) inner = inner.unwrap() as z.ZodType
  return inner
}

/** A value built by its first caller and then shared: the parts several lazy schemas are made of. */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => (built ??= { value: build() }).value
}
