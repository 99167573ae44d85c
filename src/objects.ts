export type Obj = Record<string, unknown>

/** A plain JSON object: not null, not an array. */
export const isObj = (v: unknown): v is Obj =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
