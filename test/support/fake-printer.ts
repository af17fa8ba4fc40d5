/**
 * A network receipt printer on loopback: a real TCP listener that keeps the bytes each connection
 * sent, and optionally answers the paper status request as a printer with or without paper would.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface FakePrinter {
  /** tcp://127.0.0.1:<port> */
  address: string;
  port: number;
  /** The bytes of each finished connection, in order. */
  jobs: Buffer[];
  /** Resolves with the bytes of the next connection to end. */
  nextJob(): Promise<Buffer>;
  close(): Promise<void>;
}

export interface FakePrinterOptions {
  /** Answers DLE EOT 4 with this status byte: 0x12 paper present, 0x72 paper out. No answer when absent. */
  paperStatus?: number;
}

export async function startFakePrinter(options: FakePrinterOptions = {}): Promise<FakePrinter> {
  const jobs: Buffer[] = [];
  const waiting: ((job: Buffer) => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (options.paperStatus !== undefined && chunk.includes(Buffer.of(0x10, 0x04, 0x04))) {
        socket.write(Buffer.of(options.paperStatus));
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      const job = Buffer.concat(chunks);
      jobs.push(job);
      waiting.shift()?.(job);
    });
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `tcp://127.0.0.1:${port}`,
    port,
    jobs,
    nextJob: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on loopback that nothing listens on: connections to it are refused at once. */
export async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
