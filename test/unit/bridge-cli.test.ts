/** `npm run gateway -- serve --renderer`: the flags, as a person types them, in a real process. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];

let dataDir: string;
let rendererDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-cli-screens-'));
  rendererDir = mkdtempSync(join(tmpdir(), 'tender-cli-renderer-'));
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Tender</title>');
  writeFileSync(join(rendererDir, 'customer.html'), '<!doctype html><title>Tender customer</title>');
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(rendererDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function fetchPage(url: string): Promise<{ status: number; csp: string | undefined }> {
  const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  return new Promise((resolve, reject) => {
    get(url, { agent: new Agent({ ca }) }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          csp: response.headers['content-security-policy'] as string | undefined,
        }),
      );
    }).on('error', reject);
  });
}

describe('serve --renderer', () => {
  it('serves the screens and prints their address and the launch page, neither with a credential', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        ...CLI,
        'serve',
        '--data-dir',
        dataDir,
        '--port',
        String(port),
        '--renderer-dir',
        rendererDir,
        '--reader',
        'simulator',
      ],
      { cwd: ROOT },
    );
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Tender gateway ready on')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    try {
      await ready;
      expect(output).toContain(`Cashier screens: https://127.0.0.1:${port}/\n`);
      expect(output).toContain('Card reader: simulator');
      const launchPage = join(dataDir, 'screens', 'open-screens.html');
      expect(output).toContain(`To open them in a browser on this computer, open file://${launchPage}\n`);
      // The ticket the launch page holds, and the page key, are in files, never in what serve prints.
      const ticket = /#pair=([A-Za-z0-9_-]{43})/.exec(readFileSync(launchPage, 'utf8'))?.[1] ?? '';
      expect(ticket).not.toBe('');
      expect(output).not.toContain(ticket);
      expect(output).not.toContain(readFileSync(join(dataDir, 'screens', 'page.key'), 'utf8').trim());
      // The customer's screen: its address beside the cashier's, and a launch page of its own.
      expect(output).toContain(`Customer screen: https://127.0.0.1:${port}/customer\n`);
      const customerLaunch = join(dataDir, 'screens', 'open-customer-screen.html');
      expect(output).toContain(`To open it in a browser on this computer, open file://${customerLaunch}`);
      const customerTicket =
        /#pair=([A-Za-z0-9_-]{43})/.exec(readFileSync(customerLaunch, 'utf8'))?.[1] ?? '';
      expect(customerTicket).not.toBe('');
      expect(output).not.toContain(customerTicket);
      expect(output).not.toMatch(/#pair=|#bridge=/);
      for (const path of ['/', '/customer']) {
        const page = await fetchPage(`https://127.0.0.1:${port}${path}`);
        expect(page.status, path).toBe(200);
        expect(page.csp).toContain("frame-ancestors 'none'");
      }
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses a reader without the screens, and an unknown reader, as usage mistakes', () => {
    for (const args of [
      ['--reader', 'simulator'],
      ['--renderer', '--reader', 'usb'],
    ]) {
      const result = spawnSync(process.execPath, [...CLI, 'serve', '--data-dir', dataDir, ...args], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/--reader/);
    }
  });

  it('says how to build the screens when they are not built', () => {
    const result = spawnSync(
      process.execPath,
      [...CLI, 'serve', '--data-dir', dataDir, '--port', '1', '--renderer-dir', join(dataDir, 'nowhere')],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Run `npm run build` first.');
  });
});
