/**
 * Who may reach the engine's HTTPS server, for the API and the bridge socket alike. Only loopback
 * Host names are answered, so a web page that rebinds its own name to 127.0.0.1 is refused; a
 * browser's Origin must be a page this server itself served (the cashier screens), or, for the API
 * only, an origin the caller allows (the desktop app's renderer).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The Host header values the server answers on this port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** The Host a request names, folded as hosts compare: without case. */
export function requestedHost(headers: IncomingHttpHeaders): string {
  return (headers.host ?? '').toLowerCase();
}

/** The origin of a page this server served under that Host. */
export function servedOrigin(host: string): string {
  return `https://${host}`;
}

/** The origins that may call the API: the server's own pages under any allowed Host, and `extra`. */
export function apiOrigins(hosts: Iterable<string>, extra: readonly string[] = []): Set<string> {
  return new Set([...extra, ...[...hosts].map(servedOrigin)]);
}
