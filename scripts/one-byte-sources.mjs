// V8 keeps the source of every loaded module as a string, of one byte a character while every
// character is Latin-1 and of two otherwise: one em dash in a comment doubled the 570 kB chunk
// it sat in. esbuild escapes non-ASCII characters in code (not in a tagged template's text) but
// leaves the comments it keeps as they are; those characters are escaped here, in comments only.
import { transform } from 'esbuild'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// Any UTF-16 unit past Latin-1 (an astral character is two).
const WIDE = /[\u0100-\uffff]/
const EVERY_WIDE = new RegExp(WIDE.source, 'g')
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*)/

/** A character as a JavaScript escape: the same text in code, in a string and in a comment. */
export const escapeChar = (char) => `\\u{${char.codePointAt(0).toString(16)}}`

const minified = async (code) => (await transform(code, { minify: true, loader: 'js' })).code

/** Escapes wide characters on the comment lines of `file`, if that changes nothing but comments. */
async function escapeComments(file) {
  const text = readFileSync(file, 'utf8')
  if (!WIDE.test(text)) return
  const escaped = text
    .split('\n')
    .map((line) => (COMMENT_LINE.test(line) ? line.replace(EVERY_WIDE, escapeChar) : line))
    .join('\n')
  if (escaped === text) return
  // A line that only looks like a comment (in a template's text, say) would change the code.
  if ((await minified(escaped)) !== (await minified(text))) {
    console.warn(`${file}: left as it is (a wide character on a line that is not a comment)`)
    return
  }
  writeFileSync(file, escaped)
}

/** Every bundle file directly in `dir` and in its chunks/ folder, if it has one. */
export async function oneByteSources(dir) {
  for (const folder of [dir, join(dir, 'chunks')])
    if (existsSync(folder))
      for (const name of readdirSync(folder))
        if (/\.[cm]?js$/.test(name)) await escapeComments(join(folder, name))
}
