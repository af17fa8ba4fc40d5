/**
 * Sends ESC/POS bytes to the receipt printer: over the network as raw TCP (port 9100 on most
 * printers), or through this computer's print queue in raw mode (CUPS `lp -o raw` on Linux and
 * macOS; on Windows the printer's share, written to as a file). Every way ends within a few seconds
 * with what happened in words, so a printer that is off, out of paper or unreachable never holds up
 * the counter.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';

export class PrinterError extends Error {}

export interface PrinterOptions {
  /** How long a connection or a print queue may take before the print is given up; 4 s by default. */
  timeoutMs?: number;
  /** How long a network printer is given to report its paper status; 400 ms by default. */
  statusWaitMs?: number;
  /** The operating system, which decides how a queue name is reached. */
  platform?: NodeJS.Platform;
  /** The CUPS command that queues a job; `lp` by default. */
  lpCommand?: string;
}

/** A network printer: `tcp://host:port`. */
export function networkPrinter(printer: string): { host: string; port: number } | undefined {
  const match = /^tcp:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(printer);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port };
}

/** DLE EOT 4: the paper roll sensor. The answer has bits 5 and 6 set when the paper has run out. */
const PAPER_STATUS_REQUEST = Uint8Array.of(0x10, 0x04, 0x04);
const PAPER_END_BITS = 0x60;

/** Where the bytes went, in words for the person who asked for the print. */
export async function sendToPrinter(
  printer: string,
  bytes: Uint8Array,
  options: PrinterOptions = {},
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 4_000;
  if (printer.trim() === '') {
    throw new PrinterError('No receipt printer is set. Choose one in Settings → Receipts & printer.');
  }
  const network = networkPrinter(printer);
  if (network) {
    await sendOverTcp(network.host, network.port, bytes, timeoutMs, options.statusWaitMs ?? 400);
    return `The printer at ${printer} took the receipt.`;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,126}$/.test(printer)) {
    throw new PrinterError(
      `"${printer}" is neither tcp://<host>:<port> nor the name of a print queue. Check the printer in Settings.`,
    );
  }
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') await sendToWindowsShare(printer, bytes, timeoutMs);
  else await sendToCups(printer, bytes, timeoutMs, options.lpCommand ?? 'lp');
  return `The print queue ${printer} took the receipt.`;
}

function sendOverTcp(
  host: string,
  port: number,
  bytes: Uint8Array,
  timeoutMs: number,
  statusWaitMs: number,
): Promise<void> {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    const socket: Socket = connect({ host, port });
    const finish = (error?: PrinterError) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve();
    };
    const deadline = setTimeout(
      () =>
        finish(
          new PrinterError(
            `The printer at ${where} did not answer within ${Math.round(timeoutMs / 1000)} s. ` +
              'Check that it is on and connected to the network, then print again.',
          ),
        ),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(new PrinterError(socketProblem(where, error))),
    );
    socket.once('connect', () => {
      // A printer that reports its paper sensor answers at once; one that does not is sent the
      // receipt after a short wait, as most network printers hold a job until the paper is back.
      const print = () => {
        clearTimeout(statusWait);
        socket.removeAllListeners('data');
        socket.on('data', () => undefined);
        socket.end(bytes, () => finish());
      };
      socket.once('data', (answer: Buffer) => {
        const status = answer[0] ?? 0;
        if ((status & PAPER_END_BITS) === PAPER_END_BITS) {
          clearTimeout(statusWait);
          finish(
            new PrinterError(`The printer at ${where} is out of paper. Load a new roll, then print again.`),
          );
          return;
        }
        print();
      });
      const statusWait = setTimeout(print, statusWaitMs);
      socket.write(PAPER_STATUS_REQUEST);
    });
  });
}

function socketProblem(where: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `The printer at ${where} refused the connection. Check that it is on and that ${where.split(':').pop()} is its raw printing port (9100 on most).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `No printer is known by the name in ${where}. Check the printer's address in Settings.`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `The printer at ${where} cannot be reached from this computer. Check the network cable and its address.`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `The printer at ${where} closed the connection before it took the receipt. Check it, then print again.`;
    default:
      return `The printer at ${where} could not be reached (${error.code ?? 'no answer'}). Check it, then print again.`;
  }
}

function sendToCups(queue: string, bytes: Uint8Array, timeoutMs: number, lp: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // `-o raw`: CUPS passes the ESC/POS bytes through without a filter turning them into text.
    const child = spawn(lp, ['-d', queue, '-o', 'raw'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    let settled = false;
    const finish = (error?: PrinterError) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    };
    const deadline = setTimeout(() => {
      child.kill();
      finish(
        new PrinterError(
          `The print queue ${queue} did not take the receipt within ${Math.round(timeoutMs / 1000)} s. Check CUPS, then print again.`,
        ),
      );
    }, timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        new PrinterError(
          error.code === 'ENOENT'
            ? `The print command ${lp} was not found: install CUPS (the cups-client package), or set a network printer tcp://<host>:9100.`
            : `The print queue ${queue} could not be reached (${error.code ?? error.message}).`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) finish();
      else {
        const reason = (errors.trim().split('\n')[0] ?? '').replace(/\.$/, '');
        finish(
          new PrinterError(
            `The print queue ${queue} refused the receipt${reason ? `: ${reason}` : ''}. Check the queue name in Settings and that it is enabled.`,
          ),
        );
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(bytes);
  });
}

async function sendToWindowsShare(share: string, bytes: Uint8Array, timeoutMs: number): Promise<void> {
  // A printer shared under this name takes a file written to \\localhost\<share> as a raw job when
  // its driver is the Generic / Text Only driver or the vendor's with RAW as the data type.
  const path = `\\\\localhost\\${share}`;
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await writeFile(path, bytes, { signal: controller.signal });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PrinterError(
      code === 'ABORT_ERR'
        ? `The shared printer ${share} did not take the receipt within ${Math.round(timeoutMs / 1000)} s.`
        : `The shared printer ${path} could not be reached (${code ?? 'no answer'}). Share the printer under this name, then print again.`,
    );
  } finally {
    clearTimeout(deadline);
  }
}
