/**
 * The main process's side of a counter (the bridge the screens call) over a test engine, started as
 * the app starts it: version 0.1.0, no card reader, and the browser shell unless a test asks for
 * another or for other options.
 */
import { Terminal, type TerminalOptions } from '../../electron/bridge/terminal';
import type { TestGateway } from './gateway';

export function startTerminal(
  t: Pick<TestGateway, 'gateway' | 'dataDir'>,
  options: Partial<Omit<TerminalOptions, 'gateway' | 'dataDir'>> = {},
): Promise<Terminal> {
  return Terminal.start({
    gateway: t.gateway,
    dataDir: t.dataDir,
    shell: 'browser',
    version: '0.1.0',
    reader: { kind: 'none' },
    ...options,
  });
}
