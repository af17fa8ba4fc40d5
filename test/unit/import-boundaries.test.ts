/**
 * The import boundaries in .config/eslint.config.js hold however the path to the other side is spelled:
 * each forbidden folder is refused through the shortest relative path, a longer one that climbs further
 * and comes back down, a re-export and an import() with a fixed path, and the same code importing an
 * allowed folder lints clean.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: '.config/eslint.config.js' });

/** Each way a module names another: the path goes where `from` is. */
const forms: Record<string, (from: string) => string> = {
  import: (from) => `import { value } from '${from}';\n\nexport const copy = value;\n`,
  're-export': (from) => `export * from '${from}';\n`,
  'import()': (from) => `export const load = () => import('${from}');\n`,
};

/** A file that is not in the tree; what it may not import, and what it may. */
const cases: { file: string; forbidden: string[]; allowed: string[] }[] = [
  {
    file: 'electron/gateway/store/postgres/boundary-probe.ts',
    forbidden: [
      '../sqlite/open',
      '../sqlite',
      '../../store/sqlite/ledger',
      '../../../gateway/store/sqlite/open',
      '../postgres/../sqlite/database',
    ],
    allowed: ['./connection', '../sql/ledger-sql', '../ledger-store', '../../domain/rules'],
  },
  {
    file: 'electron/gateway/store/postgres/migrations/boundary-probe.ts',
    forbidden: ['../../sqlite/migrations/index', '../../../store/sqlite/open'],
    allowed: ['./index', '../../migration'],
  },
  {
    file: 'electron/gateway/store/sqlite/boundary-probe.ts',
    forbidden: ['../postgres/connection', '../../store/postgres/open', '../../../gateway/store/postgres'],
    allowed: ['./open', '../sql/dialect', '../ledger-store'],
  },
  {
    file: 'electron/gateway/store/boundary-probe.ts',
    forbidden: ['./sqlite/open', './postgres', '../store/postgres/open', '../../gateway/store/sqlite/ledger'],
    allowed: ['./sql/dialect', './ledger-store', '../domain/rules'],
  },
  {
    file: 'electron/gateway/store/sql/boundary-probe.ts',
    forbidden: ['../sqlite/open', '../../store/postgres/open', '../../../gateway/store/sqlite'],
    allowed: ['./dialect', '../ledger-store'],
  },
  {
    file: 'electron/gateway/domain/boundary-probe.ts',
    forbidden: [
      '../store/ledger-store',
      '../http/dates',
      '../../../electron/gateway/store/sql/dialect',
      '../../gateway/http',
    ],
    allowed: ['./rules', '../../../shared/api/money'],
  },
  {
    file: 'renderer/src/ui/boundary-probe.ts',
    forbidden: [
      '../sale/sale-logic',
      '../../src/tabs/tabs',
      '../../../renderer/src/settings',
      '../../../electron/gateway/domain/rules',
    ],
    allowed: ['./money', '../../../shared/api/money'],
  },
  {
    file: 'renderer/src/sale/boundary-probe.ts',
    forbidden: ['../../../electron/gateway/domain/rules', '../../../electron/bridge/ipc'],
    allowed: ['../ui/money', '../tabs/tabs', '../../../shared/api/money'],
  },
  {
    file: 'shared/api/boundary-probe.ts',
    forbidden: [
      '../../electron/gateway/domain/rules',
      '../../renderer/src/ui/money',
      '../../shared/../electron/cli',
    ],
    allowed: ['./money', '../../shared/api/money'],
  },
];

/** What ESLint says of `code` as the file `file`, each as `rule: message` (`parse:` when it could not parse). */
async function errors(file: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath: `${root}${file}` });
  return results.flatMap((result) =>
    result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`),
  );
}

describe.each(cases)('$file', ({ file, forbidden, allowed }) => {
  for (const [form, write] of Object.entries(forms)) {
    it.each(forbidden)(`refuses ${form} '%s'`, async (from) => {
      const found = await errors(file, write(from));
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((error) => !error.startsWith('parse'))).toBe(true);
    });
    it.each(allowed)(`allows ${form} '%s'`, async (from) => {
      expect(await errors(file, write(from))).toEqual([]);
    });
  }
});
