import { z } from 'zod'
import { MAX_PATTERN_LENGTH, patternProblem } from './path-pattern.js'
import { lazySchema } from '../lazy-schema.js'

/** A path pattern within the limits that keep matching cheap; the message names the limit. */
export const PathPatternSchema = lazySchema(() =>
  z
    .string()
    .max(MAX_PATTERN_LENGTH, `a path pattern is at most ${MAX_PATTERN_LENGTH} characters`)
    .superRefine((pattern, ctx) => {
      const problem = pattern.length > MAX_PATTERN_LENGTH ? undefined : patternProblem(pattern)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
)
