// Lint rules. The layer rule matters most: src/core is plain TypeScript that never touches VS Code.
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * The import rule of one zone of src/core: never vscode, src/host or src/cli, and none of the named core folders,
 * nor the composition (src/core/domains.ts, the snapshot worker) that sits above every domain.
 */
function coreZone(files, forbidden, message) {
  const patterns = [{ group: ['**/host/**', '**/cli/**'], message: 'src/core must not import from src/host or src/cli.' }];
  if (forbidden.length > 0) {
    patterns.push({ regex: `(^|/)(${forbidden.join('|')})(/|$)`, message });
    patterns.push({ regex: '(^|/)(domains|snapshotWorker)$', message: 'only entry points (the CLI, the extension, the worker) compose the domains.' });
  }
  return [
    {
      files,
      rules: {
        'no-restricted-imports': [
          'error',
          { paths: [{ name: 'vscode', message: 'src/core must not depend on VS Code: put the adapter in src/host.' }], patterns },
        ],
      },
    },
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  // Layers inside the core, one way only (DESIGN.md): store/ and shared/ (the small basics: tokens, secrets, clock)
  // < capture/ < memory/ < context/, recall/ < turn/ < host/ and cli/. llm/ (the model port) sits beside store/ and shared/.
  // A domain teaches the store its operations through store/operationRegistry.ts and src/core/domains.ts, never
  // the other way round. Each zone repeats the rules for the whole core: a later block replaces an earlier one.
  ...coreZone(['src/core/**/*.ts'], []),
  ...coreZone(['src/core/shared/**/*.ts'], ['store', 'llm', 'memory', 'context', 'recall', 'turn', 'eval'], 'src/core/shared is the bottom layer: it imports nothing else of the core.'),
  ...coreZone(['src/core/store/**/*.ts'], ['llm', 'memory', 'context', 'recall', 'turn', 'eval'],
    'src/core/store knows nothing of the layers above it: a domain registers its operation kinds (store/operationRegistry.ts) instead.'),
  ...coreZone(['src/core/llm/**/*.ts'], ['store', 'memory', 'context', 'recall', 'turn', 'eval'], 'src/core/llm is the model port: it knows nothing of the memory.'),
  // capture/ reads the owner's words (gates, pasted material, frames, values, tiers) and knows nothing of how they are
  // kept: memory/ (statements, slots, corrections) reads through it, never the other way round.
  ...coreZone(['src/core/capture/**/*.ts'], ['store', 'memory', 'context', 'recall', 'turn', 'eval'],
    'src/core/capture reads words and knows nothing of the store or memory/ (memory/ reads through capture/, not the reverse).'),
  ...coreZone(['src/core/memory/**/*.ts'], ['context', 'recall', 'turn', 'eval'],
    'src/core/memory sits below context/, recall/ and turn/: it knows nothing of them (memory/ may read through capture/).'),
  ...coreZone(['src/core/context/**/*.ts', 'src/core/recall/**/*.ts'], ['turn', 'eval'],
    'context/ and recall/ know nothing of turn/ (the engine of a chat turn) or eval/: they sit below them.'),
  ...coreZone(['src/core/turn/**/*.ts'], ['eval'], 'src/core/turn knows nothing of eval/ (the replay runs the turn engine, not the other way round).'),
  {
    // No module of the reading of words or of memory may reach itself through its imports: a cycle hides which part
    // is read first and lets a folder's inside depend on its outside.
    files: ['src/core/capture/**/*.ts', 'src/core/memory/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts'], 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The webview runs in a browser: it may import the report's types (erased at build time), never core code.
    files: ['webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src/core/**', '**/src/host/**'], message: 'webview/ imports only types from the core.', allowTypeImports: true },
            { group: ['vscode'], message: 'webview/ runs in a browser, not the extension host.' },
          ],
        },
      ],
    },
  },
);
