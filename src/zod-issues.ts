import type { z } from 'zod'

type Issue = Pick<z.core.$ZodIssue, 'path' | 'message'>

/** Where a zod issue is, as the control plane, scenarios and replay scripts name it: `data.topics.0.key`. */
export const issuePath = (issue: Issue): string => issue.path.map(String).join('.')

/** An issue as one line: `match.path: …`, or the bare message when it is about the whole value. */
export const issueLine = (issue: Issue): string =>
  issue.path.length ? `${issuePath(issue)}: ${issue.message}` : issue.message

/** Every issue as a path and its message, for the errors that list problems one by one. */
export const issueProblems = (issues: readonly Issue[]): { path: string; message: string }[] =>
  issues.map((issue) => ({ path: issuePath(issue), message: issue.message }))

/**
 * Parse options for a value checked once (the mock's options, a scenario or fixture file): zod
 * would compile a fast path for each object schema on its first parse, which pays back only
 * for schemas parsed again and again (a route's body), and costs the start-up its compile time.
 */
export const CHECKED_ONCE = { jitless: true } as const
