// Lint for the whole monorepo; `npm test` runs it (`npm run lint`). Besides typescript-eslint's
// recommended rules it enforces the boundaries the architecture depends on:
// - no import cycles between files (import-x/no-cycle) or between the folders of a package
//   (toolsmith/no-folder-cycle); type-only imports do not count, as in import-x, since they vanish at
//   run time and cannot cause an initialisation-order bug;
// - packages talk to each other only through their published entry points, never through relative
//   paths into another package (toolsmith/no-cross-package-relative) or deep imports;
// - provider adapters use core's public, adapter-kit and testing entries, not `@toolsmith/core/internal`;
// - core imports no provider SDK;
// - `any` and every disabled rule need a written reason.
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { toolsmithRules } from './.ci/lint-rules.mjs';

const providerSdks = ['openai', 'openai/*', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*', '@google/genai', '@google/genai/*'];
const deepImports = { group: ['@toolsmith/*/src/*', '@toolsmith/*/dist/*', '@toolsmith/core/*/*'], message: 'Import a package through its entry points only.' };

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/cli/src/__fixtures__/project/**', '**/*.generated.ts', '**/*.js', '**/*.mjs', 'packages/devtools/src/page/**/*.tsx'] },
  ...tseslint.configs.recommended,
  comments.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX, toolsmith: { rules: toolsmithRules } },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    // Decorator metadata needs classes imported as values: with these, consistent-type-imports leaves
    // files that use decorators alone (an `import type` there would turn `design:paramtypes` into Object).
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // `typeof import('…')` annotations stay allowed: they type the lazily required modules.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Lazy `require` is deliberate: a command or an optional library is loaded only when it is used
      // (cold start is measured by the bench).
      '@typescript-eslint/no-require-imports': 'off',
      // Class targets are typed `Function`, as in TypeScript's own decorator signatures.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@eslint-community/eslint-comments/disable-enable-pair': ['error', { allowWholeFile: true }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'toolsmith/no-folder-cycle': 'error',
      'toolsmith/no-cross-package-relative': 'error',
      'no-restricted-imports': ['error', { patterns: [deepImports] }],
    },
  },
  {
    files: ['packages/openai/**/*.ts', 'packages/anthropic/**/*.ts', 'packages/gemini/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [deepImports, { group: ['@toolsmith/core/internal'], message: 'Adapters use @toolsmith/core, @toolsmith/core/adapter-kit and @toolsmith/core/testing only.' }] }],
    },
  },
  {
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [deepImports, { group: providerSdks, message: 'core knows no provider: provider code lives in its adapter package.' }] }],
    },
  },
  {
    // Tests may poke at what they test; the boundaries above still apply to them.
    files: ['**/*.test.ts', '**/__fixtures__/**/*.ts', '**/fuzz/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'toolsmith/no-folder-cycle': 'off' },
  },
);
