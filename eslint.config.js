import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * Imports go one way (CONVENTIONS): renderer/shell → renderer/engine → widgets → schemas/generated.
 * bff/ never imports client code; widgets never import the engine, the shell or bff/.
 */
const restrict = (patterns) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: patterns.map((group) => ({
        group: [group],
        message: 'Imports go one way; see CONVENTIONS.md.',
      })),
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'storybook-static',
      'test-results',
      'playwright-report',
      'schemas/generated',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'widgets/**/*.{ts,tsx}', 'stories/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  { files: ['bff/**/*.ts'], rules: restrict(['**/renderer/**', '**/widgets/**', 'react', 'react-dom']) },
  { files: ['widgets/**/*.{ts,tsx}'], rules: restrict(['**/renderer/**', '**/bff/**']) },
  { files: ['renderer/**/*.{ts,tsx}'], rules: restrict(['**/bff/**']) },
  { files: ['renderer/engine/**/*.{ts,tsx}'], rules: restrict(['**/shell/**', '**/bff/**']) },
);
