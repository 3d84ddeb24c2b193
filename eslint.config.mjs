// Lint rules. The layer rule matters most: src/core is plain TypeScript that never touches VS Code.
import tseslint from 'typescript-eslint';

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
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core must not depend on VS Code: put the adapter in src/host.' }],
          patterns: [{ group: ['**/host/**', '**/cli/**'], message: 'src/core must not import from src/host or src/cli.' }],
        },
      ],
    },
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
