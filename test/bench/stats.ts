/** The figures every part of `npm run bench` reports, computed one way. */

/** The value below which `p` percent of the sorted values fall. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Throughput and latency of a timed run: `latencies` in ms, over `seconds` of wall time. */
export interface Measure {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export function summarize(latencies: readonly number[], seconds: number): Measure {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    perSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/** A timed run as load.ts reports it: how many answers had each HTTP status, and each money move's result. */
export interface LoadReport extends Measure {
  statuses?: Record<string, number>;
  results?: Record<string, number>;
}

/**
 * Throws unless every answer of a run of money moves was a 200 whose result was Approved: an answer
 * of 200 can carry a Rejected or an Error, and a figure of refusals would stand for no sale.
 */
export function allApproved(run: LoadReport, what: string): void {
  if (run.statuses?.['200'] !== run.requests || run.results?.['Approved'] !== run.requests)
    throw new Error(`${what}: not every answer was approved: ${JSON.stringify([run.statuses, run.results])}`);
}

/** One line of the results table: the engine's figure beside its baseline, and its verdict. */
export interface BenchRow {
  what: string;
  engine: string;
  baseline: string;
  ratio: number;
  /**
   * How the ratio or the figure is judged, and whether it passes; a row with no verdict stands for
   * context, and its target says so and why.
   */
  target: string;
  pass?: boolean;
}

/** What a measure of the running engine is given: its address, a key with every permission, the certificate to trust. */
export interface RunningEngine {
  /** https://127.0.0.1:<port>/rest/v1 */
  api: string;
  key: string;
  caFile: string;
}
