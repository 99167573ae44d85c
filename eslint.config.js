import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  // The v1 and v2 workflow routes share the stored model (src/workflow-model/), not each other.
  {
    files: ['src/resources/workflows/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/workflows-v2/*'], message: 'Move shared rules down.' }] },
      ],
    },
  },
  {
    files: ['src/resources/workflows-v2/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/workflows/*'], message: 'Move shared rules down.' }] },
      ],
    },
  },
  // The house framework knows no part of the mock: serve.ts wires the journal, chaos, the admin
  // guard and the memory budget around it.
  {
    files: ['src/http/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/admin/*', '**/chaos/*', '**/journal/*', '**/memory/*'],
              message: 'src/http/ is the framework: wire this step in src/serve.ts instead.',
            },
          ],
        },
      ],
    },
  },
  // The dashboard's script runs in the browser.
  { files: ['src/admin/ui/assets/**/*.js'], languageOptions: { globals: { ...globals.browser } } }
)
