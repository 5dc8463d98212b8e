/**
 * The house rules of ARCHITECTURE.md, enforced by `npm run lint`:
 * core imports no framework or driver, adapters never import each other.
 * (tsyringe outside hosts/ is refused by eslint's no-restricted-imports, see eslint.config.js:
 * dependency-cruiser does not record that package's imports reliably.)
 */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-zod-fp-ts-and-node',
      severity: 'error',
      comment: 'core holds the rules; frameworks and drivers live in adapters (rule 1).',
      from: { path: '^core/src' },
      to: {
        dependencyTypesNot: ['local', 'core', 'type-only'],
        pathNot: ['node_modules/(zod|fp-ts)/'],
      },
    },
    {
      name: 'core-imports-no-adapter-or-host',
      severity: 'error',
      from: { path: '^core/src' },
      to: { path: '^(adapters|hosts)/' },
    },
    {
      name: 'adapter-does-not-import-another-adapter',
      severity: 'error',
      comment: 'adapters are thin translations behind one port each (rule 3).',
      from: { path: '^adapters/([^/]+)/' },
      to: { path: '^adapters/([^/]+)/', pathNot: '^adapters/$1/' },
    },
    {
      name: 'adapter-does-not-import-another-adapter-package',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/' },
      to: { path: 'node_modules/@ephemail/(store|http|mail|events)-' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules must stay in the graph (not followed), or imports of packages go unchecked.
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['@ephemail/source', 'import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
