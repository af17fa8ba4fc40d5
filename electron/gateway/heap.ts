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
import { runInNewContext } from 'node:vm';

export const HEAP_GROWING_PERCENT = 50;

export function keepEngineHeapSmall(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  collectOldGeneration();
}

/**
 * V8 reads the growing factor only when a full collection ends, to set the old generation's next
 * limit. Loading the engine's modules already ran one, before this code could set the flag, so the
 * limit in force was four times the live heap and no full collection came again until it was
 * reached: the engine's old generation held 60 MB for 23 MB of live data. One full collection now
 * sets the limit with the factor above. V8 hands out its collector only to a context created while
 * `--expose-gc` is set; the flag is cleared again so no other code gets it.
 */
function collectOldGeneration(): void {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  collect();
}
