/**
 * The screens' side of the bridge socket, with a socket and timers of the test's own: what a
 * request does while the connection to the host is lost.
 */
import { describe, expect, it } from 'vitest';
import { BridgeCallError } from '../../shared/ipc/facade';
import {
  socketTransport,
  UNREACHABLE,
  type SocketHandlers,
  type SocketTransport,
} from '../../shared/ipc/socket-transport';

/** Timers run only when the test says so, so nothing here depends on the machine's speed. */
class ManualTimers {
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  private next = 0;
  now = 0;
  schedule = (callback: () => void, delayMs: number) => {
    const id = this.next++;
    this.due.set(id, { at: this.now + delayMs, callback });
    return () => void this.due.delete(id);
  };
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.due].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) continue;
      this.due.delete(id);
      timer.callback();
    }
  }
}

interface FakeHost {
  transport: SocketTransport;
  timers: ManualTimers;
  /** Every socket the transport opened, newest last, with what the page sent on it. */
  sockets: { handlers: SocketHandlers; sent: string[] }[];
  ready(): void;
  drop(): void;
}

function fakeHost(): FakeHost {
  const timers = new ManualTimers();
  const sockets: FakeHost['sockets'] = [];
  const transport = socketTransport(
    (handlers) => {
      const socket = { handlers, sent: [] as string[] };
      sockets.push(socket);
      return { send: (text) => socket.sent.push(text), close: () => undefined };
    },
    { credential: 'page.credential' },
    { schedule: timers.schedule, reconnectDelayMs: 500, unsentLimitMs: 3000 },
  );
  const latest = () => sockets.at(-1) as FakeHost['sockets'][number];
  return {
    transport,
    timers,
    sockets,
    ready: () => {
      latest().handlers.open();
      latest().handlers.message(JSON.stringify({ type: 'ready' }));
    },
    drop: () => latest().handlers.close(1006, ''),
  };
}

/** Settles a promise into what it came to, without waiting for it when it has not. */
async function settledState(promise: Promise<unknown>): Promise<'pending' | 'resolved' | Error> {
  let state: 'pending' | 'resolved' | Error = 'pending';
  promise.then(
    () => (state = 'resolved'),
    (error: Error) => (state = error),
  );
  await Promise.resolve();
  await Promise.resolve();
  return state;
}

describe('a request while the connection to the host is lost', () => {
  it('fails as unreachable once its time limit passes, without waiting for the host to return', async () => {
    const host = fakeHost();
    host.ready();
    host.drop();
    expect(host.transport.state.state).toBe('reconnecting');
    const request = host.transport.invoke('attempts:begin', { idempotencyKey: 'k' });
    host.timers.advance(2999);
    expect(await settledState(request)).toBe('pending');
    host.timers.advance(1);
    const failed = await settledState(request);
    expect(failed).toBeInstanceOf(BridgeCallError);
    expect((failed as BridgeCallError).code).toBe('unavailable');
    expect((failed as BridgeCallError).message).toBe(UNREACHABLE);
  });

  it('is sent once the connection comes back within the limit, and its limit no longer applies', async () => {
    const host = fakeHost();
    host.ready();
    host.drop();
    const request = host.transport.invoke('reader:status', undefined);
    host.timers.advance(500);
    host.ready();
    const sent = host.sockets.at(-1)?.sent.map((text) => JSON.parse(text) as { type: string; id?: number });
    expect(sent?.map((message) => message.type)).toEqual(['hello', 'invoke']);
    host.timers.advance(10_000);
    expect(await settledState(request)).toBe('pending');
    host.sockets
      .at(-1)
      ?.handlers.message(
        JSON.stringify({ type: 'result', id: sent?.[1]?.id, result: { ok: true, value: 1 } }),
      );
    expect(await settledState(request)).toBe('resolved');
  });

  it('tries to reconnect at once when a request comes, and sends it as soon as the host is back', async () => {
    const host = fakeHost();
    host.ready();
    host.drop();
    // The next try is scheduled after the backoff; the request does not wait for it.
    host.timers.advance(400);
    expect(host.sockets).toHaveLength(1);
    const request = host.transport.invoke('reader:status', undefined);
    expect(host.sockets).toHaveLength(2);
    host.ready();
    expect(host.sockets.at(-1)?.sent.map((text) => (JSON.parse(text) as { type: string }).type)).toEqual([
      'hello',
      'invoke',
    ]);
    expect(await settledState(request)).toBe('pending');
  });

  it('sends a request made as the link becomes ready once, however it was made', () => {
    const host = fakeHost();
    // What the screens do: a request waiting for the first connection, and one made by a listener
    // that sees the link become ready (a screen that reloads its state).
    void host.transport.invoke('terminal:session', undefined);
    host.transport.onStateChange((state) => {
      if (state.state === 'ready') void host.transport.invoke('reader:status', undefined);
    });
    host.ready();
    const invokes = host.sockets
      .at(-1)
      ?.sent.map((text) => JSON.parse(text) as { type: string; id?: number; channel?: string })
      .filter((message) => message.type === 'invoke');
    expect(invokes?.map((message) => message.channel).sort()).toEqual(['reader:status', 'terminal:session']);
  });

  it('waits without a limit for the first connection, which the page was just served by', async () => {
    const host = fakeHost();
    const request = host.transport.invoke('terminal:session', undefined);
    host.timers.advance(60_000);
    expect(await settledState(request)).toBe('pending');
    host.ready();
    expect(host.sockets.at(-1)?.sent).toHaveLength(2);
  });

  it('a request made before the drop and not yet sent gets the same limit', async () => {
    const host = fakeHost();
    const request = host.transport.invoke('terminal:session', undefined);
    host.drop();
    host.timers.advance(3000);
    expect(await settledState(request)).toBeInstanceOf(BridgeCallError);
  });
});
