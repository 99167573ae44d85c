export type Variables = Record<string, unknown>

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][\w-]*)\s*\}\}$/

/** A path named a variable that no earlier step saved and the script does not declare. */
export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`variable "${variable}" is not defined (no earlier step saved it)`)
  }
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/**
 * Replaces `{{name}}` in a path with the URL-encoded value. An unknown name is an error here:
 * a path has no other use for braces, so it can only be a typo or a failed `save`.
 */
export function substitutePath(path: string, variables: Variables): string {
  return path.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.hasOwn(variables, name)) throw new MissingVariableError(name)
    return encodeURIComponent(asText(variables[name]))
  })
}

/**
 * Replaces `{{name}}` in a string with the variable's value. Unknown names stay as they are,
 * because Novu's own templates use the same syntax (`content: 'Hi {{firstName}}'`).
 */
export function substituteText(text: string, variables: Variables): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(variables, name) ? asText(variables[name]) : whole
  )
}

/**
 * Substitutes placeholders in every string of a JSON value. A string that is one known
 * placeholder and nothing else becomes the saved value itself, so `"{{count}}"` stays a number
 * and `"{{ids}}"` an array.
 */
export function substitute(value: unknown, variables: Variables): unknown {
  if (typeof value === 'string') {
    const name = WHOLE_PLACEHOLDER.exec(value)?.[1]
    if (name !== undefined && Object.hasOwn(variables, name)) return variables[name]
    return substituteText(value, variables)
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, variables))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, variables)])
    )
  return value
}
