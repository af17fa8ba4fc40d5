/**
 * The attacker for the connection bench, in a process of its own as a hostile local program would
 * be: it holds and trickles connections to the engine, opening again each one the engine closes.
 * Prints `ready <open>` once all are open; on SIGTERM, one JSON line of what the engine closed.
 *
 *   node --import tsx test/bench/hold-connections.ts '<json options>'
 */
import { readFileSync } from 'node:fs';
import { holdConnections, type HeldKind } from '../support/held-connections';

interface HoldRunOptions {
  port: number;
  caFile: string;
  mix: Partial<Record<HeldKind, number>>;
}

const options = JSON.parse(process.argv[2] ?? '{}') as HoldRunOptions;
const held = holdConnections({
  port: options.port,
  ca: readFileSync(options.caFile, 'utf8'),
  mix: options.mix,
});

process.once('SIGTERM', () => {
  const { open, closedByEngine } = held;
  held.stop();
  process.stdout.write(`${JSON.stringify({ open, closedByEngine })}\n`);
  process.exit(0);
});

void held.ready.then(() => process.stdout.write(`ready ${held.open}\n`));
