/**
 * The bridge over a loopback WebSocket, for the screens served by `npm run gateway -- serve
 * --renderer` in an ordinary browser. The same contract as Electron IPC; this file only frames it.
 *
 * A socket is useless until its first message presents the bridge token, which the serve command
 * prints in the fragment of the address to open (`#bridge=<token>`), so it never reaches a server
 * log or a Referer header.
 */
import { z } from 'zod';
import { invokeResultSchema } from './contract';

export const BRIDGE_SOCKET_PATH = '/bridge';
/** The URL fragment parameter that carries the token to the page. */
export const BRIDGE_TOKEN_PARAMETER = 'bridge';
/** The largest message either side accepts; requests and events are a few hundred bytes. */
export const BRIDGE_MAX_MESSAGE_BYTES = 64 * 1024;

export const SOCKET_CLOSE_CODES = {
  /** The token was missing or wrong: this page belongs to another run of the engine. */
  UNAUTHORIZED: 4401,
  /** A message that is not JSON or not in this protocol. */
  BAD_MESSAGE: 4400,
  /** No token within the allowed time. */
  TOO_SLOW: 4408,
  /** The engine is stopping. */
  GOING_AWAY: 1001,
} as const;

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), token: z.string().min(1).max(256) }),
  z.strictObject({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    channel: z.string().max(64),
    input: z.unknown().optional(),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('result'), id: z.number().int().nonnegative(), result: invokeResultSchema }),
  z.object({ type: z.literal('event'), event: z.string().max(64), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
