/** electron-vite builds the three parts of the desktop app in the shapes Electron needs. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'out');

beforeAll(() => {
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: ROOT,
      stdio: 'pipe',
    },
  );
});

describe('the desktop build', () => {
  it('bundles the main process with the engine, leaving native modules to node_modules', () => {
    const main = readFileSync(join(OUT, 'main', 'index.js'), 'utf8');
    expect(main).toContain('better-sqlite3');
    expect(main).not.toContain('function Database(');
    expect(main).toMatch(/from ["']electron["']/);
  });

  it('makes the preload one CommonJS file whose only import is electron', () => {
    const preload = readFileSync(join(OUT, 'preload', 'index.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).not.toMatch(/^\s*import\s/m);
  });

  it('builds the renderer with its strict content security policy', () => {
    const html = readFileSync(join(OUT, 'renderer', 'index.html'), 'utf8');
    expect(html).toContain("script-src 'self';");
    expect(html).not.toContain('unsafe-inline');
    expect(html).toMatch(/<script type="module" crossorigin src="\.?\/assets\/[^"]+\.js">/);
  });
});
