/**
 * The engine's heap grows by half between full collections from its first request, even when a full
 * collection ran before the growth was set: V8 applies the factor only when one ends.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function oldGenerationUnderPromotedGarbage(...args: string[]): { liveBytes: number; peakBytes: number } {
  // A young generation of 1 MB promotes whatever survives two collections, so the garbage is old.
  const result = spawnSync(
    process.execPath,
    ['--max-semi-space-size=1', '--import', 'tsx', join(ROOT, 'test/fixtures/promoted-garbage.ts'), ...args],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
    liveBytes: number;
    peakBytes: number;
  };
}

describe('keepEngineHeapSmall', () => {
  it('keeps the old generation near its live size though a full collection ran before it', () => {
    const { liveBytes, peakBytes } = oldGenerationUnderPromotedGarbage();
    // Half again for garbage, plus the garbage of the window still alive: about twice the live size.
    expect(peakBytes).toBeLessThan(3 * liveBytes);
  });

  it('is what keeps it there: without it the same garbage takes the old generation past three times its live size', () => {
    const { liveBytes, peakBytes } = oldGenerationUnderPromotedGarbage('--without');
    expect(peakBytes).toBeGreaterThan(3 * liveBytes);
  });
});
