import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { flatConfigs as importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports flow one way: components|lib|config -> features -> app; features never import each other. */
const appImportZones = [
  { target: './src/components', from: ['./src/features', './src/app'] },
  { target: './src/lib', from: ['./src/features', './src/app', './src/components'] },
  {
    target: './src/config',
    from: ['./src/features', './src/app', './src/components', './src/lib'],
  },
  { target: './src/features', from: ['./src/app'] },
  { target: './src', from: ['./server'] },
  { target: './server', from: ['./src/app', './src/features', './src/components', './src/lib'] },
];

/** Each feature may import only itself among the features. */
const featureZones = (
  existsSync('src/features') ? readdirSync('src/features', { withFileTypes: true }) : []
)
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({
    target: `./src/features/${entry.name}`,
    from: './src/features',
    except: [`./${entry.name}`],
    message: 'Features never import each other: compose them in a page (src/app).',
  }));

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.recommended,
  importX.typescript,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.app.json', 'tsconfig.node.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
      'import-x/internal-regex': '^@/',
    },
    rules: {
      'import-x/no-unresolved': 'off', // TypeScript resolves imports (tsc -b)
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...appImportZones, ...featureZones] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
