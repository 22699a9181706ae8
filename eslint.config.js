import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = import.meta.dirname; // zones are relative to the repository, wherever eslint runs from
const foldersOf = (path) =>
  readdirSync(`${root}/${path}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const adminAreas = foldersOf('src/web/features/admin').filter((folder) => folder !== 'kit');
const webFeatures = foldersOf('src/web/features');
const serverFeatures = foldersOf('src/server/features');
// The server's back-office areas: every folder of features/admin but its kit.
const serverAdminAreas = foldersOf('src/server/features/admin').filter((folder) => folder !== 'kit');

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Import rules (as bulletproof-react) work on resolved paths: '../../app' and '../../app.ts' are one file.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      // No runtime import cycles anywhere in src/. (The rule skips `import type`: those vanish at
      // build time; the layer rules below keep type imports flowing one way too.)
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Web: shared -> lib/components -> features -> app. A feature imports only itself.
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./src/web/features/${feature}`,
              from: './src/web/features',
              except: [`./${feature}`],
              message: 'A feature may not import another feature: move what both need to src/web/lib or src/web/components.',
            })),
            // The back office: its areas import the kit (admin/kit) and another area only through its
            // index.ts; the kit imports no area and not the shell (admin-app.tsx and its files at the root).
            ...adminAreas.map((area) => ({
              target: `./src/web/features/admin/${area}`,
              from: './src/web/features/admin',
              except: [`./${area}`, './kit', ...adminAreas.filter((other) => other !== area).map((other) => `./${other}/index.ts`)],
              message: 'An admin area may import another only through its index.ts: export what it needs there, or move what several areas use to admin/kit.',
            })),
            {
              target: './src/web/features/admin/kit',
              from: './src/web/features/admin',
              except: ['./kit'],
              message: 'admin/kit is used by the areas: it may not import an area or the shell.',
            },
            {
              target: './src/web/features',
              from: './src/web/app',
              message: 'Features may not import the app shell: move what they need to src/web/lib or src/web/components.',
            },
            {
              target: ['./src/web/lib', './src/web/components'],
              from: ['./src/web/features', './src/web/app'],
              message: 'lib/ and components/ are shared by the features: they may not import a feature or the app shell.',
            },
          ],
        },
      ],
    },
  },
  {
    // Server production code. Tests are left out: they may build the whole app and log in as
    // the demo accounts the seed creates.
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            // A feature imports another only through its public module, features/<name>/index.ts.
            ...serverFeatures.map((feature) => ({
              target: `./src/server/features/${feature}`,
              from: './src/server/features',
              except: [`./${feature}`, ...serverFeatures.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
              message: 'A feature may import another only through its index.ts: export what it needs there, or move it to src/server/core.',
            })),
            {
              target: ['./src/server/core', './src/server/db', './src/server/lib', './src/server/services.ts'],
              from: './src/server/features',
              message: 'core/, db/, lib/ and services.ts are below the features: they may not import one (move what both need to core/).',
            },
            {
              target: './src/server/lib',
              from: ['./src/server/core', './src/server/db', './src/server/services.ts', './src/server/app.ts'],
              message: 'lib/ holds plain helpers: no database, no core, no app (infrastructure that needs them belongs in core/).',
            },
            {
              target: './src/server/features',
              from: './src/server/app.ts',
              message: 'Features may not import app.ts (it imports them): take the dependency types from their own module.',
            },
            // The back office (features/admin): the shell (routes.ts) registers the areas; kit/ holds
            // what every area uses. An area imports the kit and another area only through its index.ts.
            ...serverAdminAreas.map((area) => ({
              target: `./src/server/features/admin/${area}`,
              from: './src/server/features/admin',
              except: ['./kit', `./${area}`, ...serverAdminAreas.filter((other) => other !== area).map((other) => `./${other}/index.ts`)],
              message: 'A back-office area may import another only through its index.ts (export what it needs there), and the kit, not the shell: move what both need to admin/kit.',
            })),
            {
              target: './src/server/features/admin/kit',
              from: './src/server/features/admin',
              except: ['./kit'],
              message: 'admin/kit is below the areas: it may not import one, nor the shell (an area hands the kit what it needs, as a reader names its worker).',
            },
            { target: './src/server/db/seed', from: './src/server/features', message: 'db/seed may not import features.' },
            { target: './src/server/features', from: './src/server/db/seed', message: 'Features may not import db/seed (demo data).' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'], message: 'The browser may not import server code.' }] }],
    },
  },
  {
    // shared/ runs in the browser and on the server: no node:*, no React, no database.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'react', 'kysely', '**/server/**', '**/web/**'], message: 'shared/ may not import this.' }] },
      ],
    },
  },
);
