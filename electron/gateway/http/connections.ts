/**
 * Every connection to the engine, watched from the moment TCP accepts it until it closes, so that no
 * client can hold connections the engine needs without making progress on them.
 *
 * Node's own timers leave gaps a local program can sit in: the TLS handshake may take two minutes,
 * the header timer starts only with a request's first byte, and the keep-alive timer restarts on any
 * byte, even the blank lines a client may send between requests. Here each stage of a connection
 * has a deadline, counted from when the stage began, that nothing the client sends can move.
 *
 * Past the cap, the engine makes room instead of turning the newcomer away: it closes the connection
 * that has gone longest without progress (still in its handshake, waiting for a request, sending one
 * slowly, or idle between requests). A request that has fully arrived is never cut, since its answer
 * may be a payment's; when every connection has one, the newcomer is let in over the cap, as those
 * requests end on their own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface ConnectionLimits {
  /** Connections open at once before the one longest without progress is closed for a new one. */
  maxConnections: number;
  /** The TLS handshake must be done within this, counted from connect. */
  handshakeTimeoutMs: number;
  /** A request's headers must all arrive within this; for a new connection's first, from connect. */
  headersTimeoutMs: number;
  /** A request must arrive whole within this: the first from connect, later ones from their headers. */
  requestTimeoutMs: number;
  /** A connection with nothing under way is closed this long after its last answer. */
  keepAliveTimeoutMs: number;
  /**
   * Once the engine has ended a connection after its answer, what the client still sends is read and
   * dropped for at most this long. Closing at once would let the client's unread bytes turn into a
   * reset that can destroy the answer before the client reads it.
   */
  lingerMs: number;
}

type Stage = 'handshaking' | 'awaiting-request' | 'receiving' | 'answering' | 'idle' | 'upgraded' | 'closing';

/**
 * Stages in which a connection is never closed to make room: a request that arrived whole, whose
 * answer may be a payment's, and an upgraded socket, which the screens' bridge keeps open.
 */
const IN_PROGRESS: ReadonlySet<Stage> = new Set<Stage>(['answering', 'upgraded']);

class Connection {
  stage: Stage = 'handshaking';
  secured: TLSSocket | undefined;
  requests = 0;
  /** Requests whose headers came and whose body is still arriving. */
  receiving = 0;
  /** Requests that arrived whole and whose answer is not written yet. */
  answering = 0;
  receivingSince = 0;
  /** The engine is stopping: the connection ends once its last answer is written. */
  endWhenAnswered = false;
  deadline: NodeJS.Timeout | undefined;

  constructor(
    readonly raw: Socket,
    readonly connectedAt: number,
    readonly peer: string | undefined,
  ) {}

  get socket(): Socket {
    return this.secured ?? this.raw;
  }
}

function peerOf(socket: Socket): string | undefined {
  return socket.remoteAddress === undefined ? undefined : `${socket.remoteAddress}|${socket.remotePort}`;
}

export class ConnectionGuard {
  private readonly open = new Set<Connection>();
  /** Connections that may be closed to make room, in the order they last made progress. */
  private readonly sheddable = new Set<Connection>();
  /**
   * Connections in their handshake, by the client's address and port, which no other open connection
   * shares: Node hands over the TLS socket with no public link to the TCP socket it grew from.
   */
  private readonly handshaking = new Map<string, Connection>();
  private readonly bySocket = new WeakMap<Socket, Connection>();
  /** Set by closeAll: a connection accepted from here on (the listener not yet closed) is cut. */
  private stopping = false;

  constructor(private readonly limits: ConnectionLimits) {}

  watch(server: NetServer): void {
    server.on('connection', (raw: Socket) => this.accept(raw));
    server.on('secureConnection', (socket: TLSSocket) => this.secure(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.request(request, response),
    );
    // Listening for 'upgrade' would make Node treat every Upgrade header as one, so the guard only
    // follows upgrades once something (the screens' bridge socket) takes them.
    let followingUpgrades = false;
    server.on('newListener', (event: string | symbol) => {
      if (event !== 'upgrade' || followingUpgrades) return;
      followingUpgrades = true;
      server.prependListener('upgrade', (request: IncomingMessage) => this.upgrade(request));
    });
  }

  /**
   * The engine is stopping: closes at once every connection with no answer under way, and each of
   * the others once its answers are written. A request that arrived whole may be a payment's, which
   * the caller must learn the outcome of; one still arriving is cut, nothing of it done.
   */
  closeAll(): void {
    this.stopping = true;
    for (const connection of [...this.open]) {
      if (connection.stage === 'answering') connection.endWhenAnswered = true;
      else this.cut(connection);
    }
  }

  private accept(raw: Socket): void {
    if (this.stopping) {
      raw.destroy();
      return;
    }
    if (this.open.size >= this.limits.maxConnections) this.shedOne();
    const connection = new Connection(raw, Date.now(), peerOf(raw));
    this.open.add(connection);
    this.bySocket.set(raw, connection);
    if (connection.peer !== undefined) this.handshaking.set(connection.peer, connection);
    raw.once('close', () => this.forget(connection));
    this.enter(connection, 'handshaking', this.limits.handshakeTimeoutMs);
  }

  private secure(socket: TLSSocket): void {
    const peer = peerOf(socket);
    const connection = peer === undefined ? undefined : this.handshaking.get(peer);
    if (!connection || peer === undefined) return;
    this.handshaking.delete(peer);
    connection.secured = socket;
    this.bySocket.set(socket, connection);
    // Node's HTTP server destroys a connection whose answer said "Connection: close" the moment the
    // answer is flushed; a client still sending its body then gets a reset instead of the answer.
    // Ending it is enough: 'finish' below gives it a bounded time to linger.
    Object.assign(socket, {
      destroySoon: () => {
        if (socket.writable) socket.end();
      },
    });
    socket.once('finish', () => this.enter(connection, 'closing', this.limits.lingerMs));
    this.settle(connection);
  }

  private request(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.bySocket.get(request.socket);
    if (!connection) return;
    connection.requests++;
    if (connection.receiving++ === 0) {
      connection.receivingSince = connection.requests === 1 ? connection.connectedAt : Date.now();
    }
    let progress: 'receiving' | 'answering' | 'answered' = 'receiving';
    const arrived = () => {
      if (progress !== 'receiving') return;
      progress = 'answering';
      connection.receiving--;
      connection.answering++;
      this.settle(connection);
    };
    const answered = () => {
      if (progress === 'answered') return;
      if (progress === 'receiving') connection.receiving--;
      else connection.answering--;
      progress = 'answered';
      this.settle(connection);
    };
    // The rest of a request often arrives in the same read as its headers, after this event.
    setImmediate(() => {
      if (request.complete) arrived();
    });
    request.once('end', arrived);
    // 'prefinish': the whole answer is handed to the socket. A client that will not read it does not
    // keep the connection out of reach.
    response.once('prefinish', answered);
    response.once('close', answered);
    this.settle(connection);
  }

  private upgrade(request: IncomingMessage): void {
    const connection = this.bySocket.get(request.socket);
    // From here the connection's own protocol keeps its time: the bridge closes a socket that does not
    // present its token within seconds.
    if (connection && connection.stage !== 'closing') this.enter(connection, 'upgraded');
  }

  /** Puts the connection in the stage its requests call for, unless it is already there. */
  private settle(connection: Connection): void {
    if (connection.stage === 'closing' || connection.stage === 'upgraded') return;
    const now = Date.now();
    const { limits } = this;
    if (connection.endWhenAnswered && connection.answering === 0) {
      // Its answer is handed to the socket: ended, so it is flushed before the connection closes.
      connection.socket.end();
      this.enter(connection, 'closing', limits.lingerMs);
    } else if (connection.answering > 0) {
      if (connection.stage !== 'answering') this.enter(connection, 'answering');
    } else if (connection.receiving > 0) {
      if (connection.stage !== 'receiving')
        this.enter(connection, 'receiving', connection.receivingSince + limits.requestTimeoutMs - now);
    } else if (connection.requests === 0) {
      if (connection.stage !== 'awaiting-request')
        this.enter(connection, 'awaiting-request', connection.connectedAt + limits.headersTimeoutMs - now);
    } else if (connection.stage !== 'idle') {
      this.enter(connection, 'idle', limits.keepAliveTimeoutMs);
    }
  }

  private enter(connection: Connection, stage: Stage, deadlineInMs?: number): void {
    if (!this.open.has(connection)) return;
    connection.stage = stage;
    clearTimeout(connection.deadline);
    connection.deadline = undefined;
    this.sheddable.delete(connection);
    if (!IN_PROGRESS.has(stage)) this.sheddable.add(connection);
    if (deadlineInMs !== undefined) {
      connection.deadline = setTimeout(() => this.cut(connection), Math.max(0, deadlineInMs));
      connection.deadline.unref();
    }
  }

  private shedOne(): void {
    const oldest = this.sheddable.values().next();
    if (!oldest.done) this.cut(oldest.value);
  }

  /** Closes the connection now; it stops counting at once, before its socket reports the close. */
  private cut(connection: Connection): void {
    this.forget(connection);
    connection.socket.destroy();
  }

  private forget(connection: Connection): void {
    clearTimeout(connection.deadline);
    this.open.delete(connection);
    this.sheddable.delete(connection);
    if (connection.peer !== undefined && this.handshaking.get(connection.peer) === connection)
      this.handshaking.delete(connection.peer);
  }
}
