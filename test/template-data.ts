// Data for the template renderers' tests (simple-render, simple-liquid): what a trigger's
// payload can hold, under the names the random texts read.
import fc from 'fast-check'

/** Objects of these keys, nested a few levels, holding texts, numbers, booleans, null, arrays. */
export function templateData(keys: readonly string[], texts: readonly string[]) {
  const leaf = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom(...texts),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null)
  )
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      leaf,
      tie('data'),
      fc.array(tie('value'), { maxLength: 3 })
    ),
    data: fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 5 }),
  })).data
}

/** Data in which `a.b` leads to more than a text, a number, a boolean or nothing. */
export const NOT_TEXT_AT_A_B: Record<string, unknown>[] = [
  { a: { b: { c: 1 } } },
  { a: { b: [1, 2] } },
  { a: { b: () => 'f' } },
  { a: 'text' },
  { a: Object.create({ b: 'inherited' }) as unknown },
]

/** Texts with no `<`, `>` or `&`, any code point otherwise: what sanitize-html leaves as they are. */
export const plainTexts = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom(
        '\0',
        '\r',
        '\n',
        '"',
        "'",
        '=',
        '/',
        '!',
        '-',
        ';',
        '#',
        ' ',
        '\ufeff'
      ),
      maxLength: 20,
    })
  )
  .filter((text) => !/[<>&]/.test(text))
