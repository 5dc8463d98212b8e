import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'benchmarks/results/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Dependency injection belongs to the composition root (ARCHITECTURE rule 4).
    files: ['core/**/*.ts', 'adapters/**/*.ts', 'examples/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'tsyringe', message: 'tsyringe lives only in hosts/* (the composition root).' },
            { name: 'reflect-metadata', message: 'reflect-metadata lives only in hosts/* (the composition root).' },
          ],
        },
      ],
    },
  },
  {
    // Code that runs for every message or event (ADR 0024): an object literal that starts with a
    // spread and then adds keys is allocated in V8's old generation on Node 20.
    files: [
      'core/src/mail/**/*.ts',
      'core/src/store/**/*.ts',
      'adapters/mail-smtp/src/session-handlers.ts',
      'adapters/mail-smtp/src/message-collector.ts',
      'adapters/mail-parse/src/parse-worker.ts',
      'adapters/store-sqlite/src/sqlite-document-store.ts',
      'hosts/api/src/delivery-*.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > SpreadElement:first-child ~ *',
          message: 'On the per-message path, write overlay(base, { ... }) (core) or Object.assign({}, base, { ... }) instead of { ...base, key }: V8 puts the latter in the old generation (ADR 0024).',
        },
      ],
    },
  },
  {
    // Programs whose job is to print: the CLI, benchmarks, examples and the test harness.
    files: ['hosts/*/src/cli*.ts', 'hosts/*/src/cli/**', 'hosts/*/src/main.ts', 'benchmarks/**', 'examples/**', 'test/harness/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests poke at untyped JSON answers.
    files: ['**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
  },
);
