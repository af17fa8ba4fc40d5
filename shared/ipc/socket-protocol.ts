/**
 * The bridge over a loopback WebSocket, for the screens served by `npm run gateway -- serve
 * --renderer` in an ordinary browser. The same contract as Electron IPC; this file only frames it.
 *
 * A socket is useless until its first message pairs it: a new page redeems the single-use ticket
 * it found in the fragment of the address it was opened at (`#pair=<ticket>`, so it never reaches a
 * server log or a Referer header) for a credential of its own, which it presents from then on,
 * across reconnects and restarts of the engine.
 */
import { z } from 'zod';
import { invokeResultSchema } from './contract';

export const BRIDGE_SOCKET_PATH = '/bridge';
/** The URL fragment parameter that carries a pairing ticket to a new page. */
export const BRIDGE_PAIRING_PARAMETER = 'pair';
/** The largest message either side accepts; requests and events are a few hundred bytes. */
export const BRIDGE_MAX_MESSAGE_BYTES = 64 * 1024;

export const SOCKET_CLOSE_CODES = {
  /** The ticket or the credential was wrong, used or expired: this page is not one of the screens. */
  UNAUTHORIZED: 4401,
  /** The same page's credential was presented on a newer socket, which took over. */
  REPLACED: 4409,
  /** A message that is not JSON or not in this protocol. */
  BAD_MESSAGE: 4400,
  /** No ticket or credential within the allowed time. */
  TOO_SLOW: 4408,
  /** The engine is stopping. */
  GOING_AWAY: 1001,
} as const;

export const clientMessageSchema = z.discriminatedUnion('type', [
  /** A new page: the ticket it was opened with. */
  z.strictObject({ type: z.literal('pair'), ticket: z.string().min(1).max(256) }),
  /** A page paired before: its own credential. */
  z.strictObject({ type: z.literal('hello'), credential: z.string().min(1).max(256) }),
  z.strictObject({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    channel: z.string().max(64),
    input: z.unknown().optional(),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  /** The socket may be used; after a pairing, with the page's credential to present from now on. */
  z.object({ type: z.literal('ready'), credential: z.string().max(256).optional() }),
  z.object({ type: z.literal('result'), id: z.number().int().nonnegative(), result: invokeResultSchema }),
  z.object({ type: z.literal('event'), event: z.string().max(64), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
