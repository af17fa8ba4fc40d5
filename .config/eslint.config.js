// Lint rules, including the import boundaries between layers (docs/architecture.md, "How the layer
// boundaries are enforced").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * tender/import-folders: a file imports nothing in the folders of any group it is given (paths from the
 * repository root), each group with its message. The path is resolved from the importing file, so every
 * spelling of it is refused, however far it climbs and comes back down; imports, re-exports and
 * import() with a fixed path alike.
 */
const importFolders = {
  meta: {
    type: 'problem',
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          folders: { type: 'array', items: { type: 'string' } },
          message: { type: 'string' },
        },
        required: ['folders', 'message'],
        additionalProperties: false,
      },
    },
  },
  create(context) {
    const groups = context.options;
    const from = path.dirname(context.filename);
    const check = (source) => {
      const spelled =
        source?.type === 'Literal'
          ? source.value
          : source?.type === 'TemplateLiteral' && source.expressions.length === 0
            ? source.quasis[0].value.cooked
            : undefined;
      // A package name is no path; no-restricted-imports names the packages.
      if (typeof spelled !== 'string' || !(spelled.startsWith('.') || path.isAbsolute(spelled))) return;
      const target = path.relative(root, path.resolve(from, spelled)).split(path.sep).join('/');
      for (const { folders, message } of groups) {
        const folder = folders.find((name) => target === name || target.startsWith(`${name}/`));
        if (folder) {
          context.report({ node: source, message: `${message} ('${spelled}' is in ${folder}/.)` });
          return;
        }
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
const tender = { rules: { 'import-folders': importFolders } };

const noElectron = {
  name: 'electron',
  message: 'The engine, the reader and the bridge host run in plain Node: never import electron here.',
};
const noSqlite = {
  name: 'better-sqlite3',
  message: 'Only electron/gateway/store/sqlite talks to SQLite; take the store port instead.',
};
const noHid = { name: 'node-hid', message: 'Only electron/reader talks to node-hid.' };
const noPg = {
  name: 'pg',
  message: 'Only electron/gateway/store/postgres talks to the store server; take the store port instead.',
};
const rendererPatterns = [
  { group: ['node:*'], message: 'The renderer has no Node: use the bridge (window.tender).' },
  { group: ['electron/*'], message: 'The renderer reaches the main process only through window.tender.' },
];
const rendererFolders = {
  folders: ['electron'],
  message: 'The renderer reaches the main process only through window.tender.',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { tender },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noSqlite, noHid, noPg, { name: 'react', message: 'shared/ holds no UI.' }],
          patterns: [{ group: ['node:*'], message: 'shared/ runs in the renderer too: no Node modules.' }],
        },
      ],
      'tender/import-folders': [
        'error',
        { folders: ['electron', 'renderer'], message: 'shared/ imports nothing of ours.' },
      ],
    },
  },
  {
    files: ['electron/gateway/**/*.ts', 'electron/bridge/**/*.ts', 'electron/cli.ts'],
    ignores: ['electron/gateway/store/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noSqlite, noHid, noPg] }] },
  },
  // The store: its root and sql/ hold what both stores share and import neither store's side; each
  // side imports only its own driver, and neither imports the other.
  {
    files: ['electron/gateway/store/**/*.ts'],
    ignores: ['electron/gateway/store/sqlite/**', 'electron/gateway/store/postgres/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noHid, noSqlite, noPg],
        },
      ],
      'tender/import-folders': [
        'error',
        {
          folders: ['electron/gateway/store/sqlite', 'electron/gateway/store/postgres'],
          message: 'What both stores share depends on neither: the store that is chosen is given to it.',
        },
      ],
    },
  },
  {
    files: ['electron/gateway/store/sqlite/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noHid, noPg],
        },
      ],
      'tender/import-folders': [
        'error',
        {
          folders: ['electron/gateway/store/postgres'],
          message: 'The SQLite side never imports the store server side; share through store/ or store/sql/.',
        },
      ],
    },
  },
  {
    files: ['electron/gateway/store/postgres/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noHid, noSqlite],
        },
      ],
      'tender/import-folders': [
        'error',
        {
          folders: ['electron/gateway/store/sqlite'],
          message: 'The store server side never imports the SQLite side; share through store/ or store/sql/.',
        },
      ],
    },
  },
  {
    files: ['electron/reader/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noSqlite, noPg] }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noSqlite, noHid, noPg],
          patterns: rendererPatterns,
        },
      ],
      'tender/import-folders': ['error', rendererFolders],
    },
  },
  // The inner layers: the rules of the engine and the renderer's shared pieces depend on nothing that
  // depends on them, so a rule can be read, tested and reused without the storage, the wire or a screen.
  {
    files: ['electron/gateway/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noElectron,
            noSqlite,
            noHid,
            noPg,
            { name: 'fastify', message: 'domain/ holds pure rules; HTTP lives in electron/gateway/http.' },
          ],
          patterns: [
            {
              group: ['@fastify/*', 'fastify/*'],
              message: 'domain/ holds pure rules; HTTP lives in electron/gateway/http.',
            },
          ],
        },
      ],
      'tender/import-folders': [
        'error',
        {
          folders: ['electron/gateway/store', 'electron/gateway/http'],
          message: 'domain/ holds pure rules: the store and HTTP call it, never the reverse.',
        },
      ],
    },
  },
  {
    files: ['renderer/src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noSqlite, noHid, noPg],
          patterns: rendererPatterns,
        },
      ],
      'tender/import-folders': [
        'error',
        rendererFolders,
        {
          folders: ['sale', 'tabs', 'refunds', 'history', 'batch', 'settings', 'manager', 'shell'].map(
            (feature) => `renderer/src/${feature}`,
          ),
          message:
            'ui/ holds pieces every screen shares: it imports no feature; move what it needs out of the feature.',
        },
      ],
    },
  },
);
