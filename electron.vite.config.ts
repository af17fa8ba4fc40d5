import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

const { version } = JSON.parse(readFileSync(fromRoot('./package.json'), 'utf8')) as { version: string };

// Tests build into a folder of their own, so they never race another build of out/ running beside them.
const outDir = process.env.TENDER_BUILD_DIR ?? fromRoot('./out');

/**
 * The dev server needs an inline React Refresh preamble, injected <style> tags and its HMR websocket,
 * all of which the production policy in renderer/index.html forbids. Only `electron-vite dev` gets
 * the looser policy; built files keep the strict one byte for byte.
 */
function devContentSecurityPolicy(): Plugin {
  return {
    name: 'tender:dev-content-security-policy',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(
        /(http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/,
        (_m, open, policy: string, close) => {
          const loosened = policy
            .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
            .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
            .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*");
          return `${open}${loosened}${close}`;
        },
      );
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: join(outDir, 'main'),
      // Native addons (better-sqlite3, node-hid) and the rest of `dependencies` load from node_modules
      // at run time; only our own code is bundled.
      externalizeDeps: true,
      lib: { entry: fromRoot('./electron/main/index.ts'), formats: ['es'] },
      rolldownOptions: { output: { entryFileNames: 'index.js' } },
    },
  },
  preload: {
    define: { __TENDER_VERSION__: JSON.stringify(version) },
    build: {
      outDir: join(outDir, 'preload'),
      // A sandboxed preload can require only 'electron' and a few Node built-ins, and only as CommonJS:
      // everything else must be inlined into this one file.
      externalizeDeps: false,
      lib: { entry: fromRoot('./electron/preload/index.ts'), formats: ['cjs'] },
      rolldownOptions: { output: { entryFileNames: 'index.cjs', codeSplitting: false } },
    },
  },
  renderer: {
    root: fromRoot('./renderer'),
    plugins: [react(), devContentSecurityPolicy()],
    build: {
      outDir: join(outDir, 'renderer'),
      // electron-vite leaves the renderer unminified; a browser over `serve --renderer` pays for every byte.
      minify: true,
      // The cashier's screens and the customer's screen: two pages, each with only the code it runs.
      rolldownOptions: {
        input: {
          index: fromRoot('./renderer/index.html'),
          customer: fromRoot('./renderer/customer.html'),
        },
      },
    },
  },
});
