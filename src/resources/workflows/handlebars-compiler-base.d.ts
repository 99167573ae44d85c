// The module of Handlebars' parser (`handlebars` itself re-exports it as Handlebars.Parser and
// Handlebars.parseWithoutProcessing); the package's types declare only its main entry.
declare module 'handlebars/dist/cjs/handlebars/compiler/base.js' {
  const base: {
    parser: { lexer: { next(): unknown }; symbols_: Record<string, number> }
    parseWithoutProcessing(input: string): hbs.AST.Program
  }
  export default base
}
