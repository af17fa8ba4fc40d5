/**
 * Serves the built screens on the engine's own HTTPS origin, for a browser next to `npm run gateway
 * -- serve --renderer`: the cashier's (index.html at /), the customer's (customer.html at /customer)
 * and Vite's flat assets folder. Only those places are served, so every other path keeps the API's
 * own 404.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { screensDocumentHeaders } from './content-security-policy';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/** Vite writes assets as flat, hashed names; anything else (a dot file, a subfolder, ..) is refused. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export class ScreensNotBuiltError extends Error {}

function builtDocument(rendererDir: string, name: string): Buffer {
  try {
    return readFileSync(join(rendererDir, name));
  } catch {
    throw new ScreensNotBuiltError(
      `The screens are not built (no ${join(rendererDir, name)}). Run \`npm run build\` first.`,
    );
  }
}

export function serveScreens(app: FastifyInstance, rendererDir: string): void {
  const documents: [paths: string[], document: Buffer][] = [
    [['/', '/index.html'], builtDocument(rendererDir, 'index.html')],
    [['/customer'], builtDocument(rendererDir, 'customer.html')],
  ];

  for (const [paths, document] of documents) {
    for (const path of paths) {
      app.get(path, async (request, reply) =>
        reply
          // The host is one of the loopback names the server's Host check has already allowed.
          .headers(screensDocumentHeaders([`wss://${request.headers.host ?? ''}`]))
          .type('text/html; charset=utf-8')
          .send(document),
      );
    }
  }

  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const type = CONTENT_TYPES[extname(name)];
    if (!ASSET_NAME.test(name) || !type) return reply.callNotFound();
    let body: Buffer;
    try {
      body = await readFile(join(rendererDir, 'assets', name));
    } catch {
      return reply.callNotFound();
    }
    return reply.header('cross-origin-resource-policy', 'same-origin').type(type).send(body);
  });
}
