/**
 * The engine's heap, kept small on a counter PC. A burst of concurrent sales leaves requests'
 * objects alive across a group commit, so they outlive the young generation and become old garbage.
 * V8 lets the old generation grow to up to four times what survived the last full collection
 * before collecting again, which took the engine's peak memory past 150 MB for 17 MB of live data.
 * Growing by half instead costs no measurable throughput (BENCHMARKS.md).
 *
 * Call it first thing in a process that hosts the engine: the headless CLI and Electron's main
 * process. The young generation's size can only be set on the command line; `npm run gateway`
 * passes `--max-semi-space-size=8` for that.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

export function keepEngineHeapSmall(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
