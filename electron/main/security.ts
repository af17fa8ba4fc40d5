import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The engine listens on loopback only; the window talks to nothing else over HTTPS. */
export const GATEWAY_HOST = '127.0.0.1';
export const DEFAULT_GATEWAY_PORT = 8443;

/**
 * The renderer is served from this privileged scheme rather than file://, so its fetches to the engine
 * carry a real Origin the engine can allow (file:// pages send `Origin: null`, which any sandboxed
 * frame in any browser can send too).
 */
export const RENDERER_SCHEME = 'tender';
export const RENDERER_ORIGIN = `${RENDERER_SCHEME}://app`;

/** Results understood by `session.setCertificateVerifyProc`. */
export const CERTIFICATE_ACCEPTED = 0;
export const CERTIFICATE_REJECTED = -2;

/**
 * Reads TENDER_PORT. A value that is set but not a usable TCP port is an error rather than a silent
 * fallback, so the cashier never ends up on a different engine than the one configured.
 */
export function gatewayPortFrom(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.TENDER_PORT?.trim();
  if (raw === undefined || raw === '') return DEFAULT_GATEWAY_PORT;
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new Error(`TENDER_PORT must be a port number from 1 to 65535, not "${raw}".`);
  }
  return port;
}

/**
 * The base64 body of the first certificate in a PEM text, without line breaks, so two encodings of the
 * same DER bytes compare equal whatever their line length or line endings.
 */
export function certificateBody(pem: string): string | undefined {
  const match = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem);
  const body = match?.[1]?.replace(/\s+/g, '');
  return body ? body : undefined;
}

export interface PresentedCertificate {
  /** The host name the connection was made to. */
  hostname: string;
  /** PEM of the certificate the server presented. */
  pem: string;
}

/**
 * True only for the engine's own self-signed certificate presented on the loopback address.
 * The port is not part of the check because Chromium's verifier is not told it; that loses nothing,
 * since only a holder of the engine's private key can present this certificate.
 */
export function isAllowedCertificate(presented: PresentedCertificate, engineCertificatePem: string): boolean {
  if (presented.hostname !== GATEWAY_HOST) return false;
  const expected = certificateBody(engineCertificatePem);
  return expected !== undefined && certificateBody(presented.pem) === expected;
}

/** Answer for `session.setCertificateVerifyProc`: everything but the engine is refused. */
export function verifyCertificate(presented: PresentedCertificate, engineCertificatePem: string): number {
  return isAllowedCertificate(presented, engineCertificatePem) ? CERTIFICATE_ACCEPTED : CERTIFICATE_REJECTED;
}

/**
 * Maps a `tender://app/...` request to a file inside the built renderer folder, or undefined for any
 * other host, an unreadable path, or a path that would leave that folder.
 */
export function rendererFileFor(requestUrl: string, rendererDir: string): string | undefined {
  let url: URL;
  let pathname: string;
  try {
    url = new URL(requestUrl);
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (`${url.protocol}//${url.host}` !== RENDERER_ORIGIN || pathname.includes('\0')) return undefined;
  const root = resolve(rendererDir);
  const file = resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  const inside = relative(root, file);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    return undefined;
  return file;
}

/** Origins whose fetches the engine answers: the window's own, and the dev server's while developing. */
export function rendererOrigins(devServerUrl: string | undefined): string[] {
  return devServerUrl ? [new URL(devServerUrl).origin] : [RENDERER_ORIGIN];
}
