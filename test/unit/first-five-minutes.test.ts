/**
 * What a newcomer runs first: the system packages' script, as root and as a user with sudo, and the
 * guides' word on the commands. The script's apt, sudo and id are stand-ins on PATH that write down
 * how they were called, so nothing is installed here.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../shared/api/permissions';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'resources', 'install-debian-packages.sh');
const PACKAGES = readFileSync(join(ROOT, 'resources', 'debian-packages.txt'), 'utf8')
  .split(/\s+/)
  .filter(Boolean);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the script as user `uid`, with sudo present or not; returns its exit status, stderr and the calls made. */
function runScript(
  uid: number,
  withSudo: boolean,
): { status: number | null; stderr: string; calls: string[] } {
  const bin = mkdtempSync(join(tmpdir(), 'tender-install-'));
  dirs.push(bin);
  const log = join(bin, 'calls.log');
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  stub('id', `[ "$1" = "-u" ] && echo ${uid}`);
  stub('apt-get', `echo "apt-get DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> "${log}"`);
  if (withSudo) stub('sudo', `echo "sudo $1" >> "${log}"; exec "$@"`);
  // Only the stand-ins and the plain tools the script uses are on PATH: never the machine's apt or sudo.
  for (const tool of ['env', 'cat', 'dirname']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(bin, tool));
  }
  const result = spawnSync('/bin/sh', [SCRIPT], { env: { PATH: bin }, encoding: 'utf8' });
  let calls: string[] = [];
  try {
    calls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    calls = [];
  }
  return { status: result.status, stderr: result.stderr, calls };
}

describe('resources/install-debian-packages.sh', () => {
  it('as root, runs apt itself: the package lists, then every listed package', () => {
    const { status, calls } = runScript(0, false);
    expect(status).toBe(0);
    expect(calls).toEqual([
      'apt-get DEBIAN_FRONTEND=noninteractive update',
      `apt-get DEBIAN_FRONTEND=noninteractive install -y --no-install-recommends ${PACKAGES.join(' ')}`,
    ]);
  });

  it('as a user with sudo, runs apt through sudo', () => {
    const { status, calls } = runScript(1000, true);
    expect(status).toBe(0);
    expect(calls).toEqual([
      'sudo env',
      'apt-get DEBIAN_FRONTEND=noninteractive update',
      'sudo env',
      `apt-get DEBIAN_FRONTEND=noninteractive install -y --no-install-recommends ${PACKAGES.join(' ')}`,
    ]);
  });

  it('as a user without sudo, says to run it as root, and runs nothing', () => {
    const { status, stderr, calls } = runScript(1000, false);
    expect(status).toBe(1);
    expect(stderr).toContain('Run this as root, or install sudo.');
    expect(calls).toEqual([]);
  });
});

describe('the guides', () => {
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

  it('give one test command that works as root and with sudo, the one CI runs', () => {
    const command = 'sh resources/install-debian-packages.sh && npm ci && npm test';
    for (const file of ['README.md', 'docs/operations.md']) {
      expect(read(file), file).toContain(command);
      expect(read(file), file).not.toMatch(
        /sudo apt-get install -y \$\(cat resources\/debian-packages\.txt\)/,
      );
    }
    expect(read('.ci/run')).toContain('sh resources/install-debian-packages.sh');
  });

  it('say that the first start asks for a manager', () => {
    expect(read('README.md')).not.toMatch(/opens it on the sale screen/);
    expect(read('README.md')).toMatch(/first start asks for the first manager/);
  });

  it('list all the permissions wherever keys create is described', () => {
    for (const file of ['docs/api.md', 'docs/operations.md']) {
      const row = read(file)
        .split('\n')
        .find((line) => line.startsWith('| `keys create'));
      expect(row, file).toBeDefined();
      for (const permission of PERMISSIONS)
        expect(row, `${file}: ${permission}`).toContain(`\`${permission}\``);
    }
  });
});
