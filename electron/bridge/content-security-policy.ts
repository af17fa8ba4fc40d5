/**
 * The content security policy of the cashier screens when a server sends them: the desktop app's
 * tender:// protocol or the headless engine's HTTPS. It matches the meta policy built into
 * renderer/index.html and adds what only a header can carry: frame-ancestors, so no other page can
 * frame the screens and trick a cashier into clicks.
 */
export function screensContentSecurityPolicy(connectSources: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers that go with every screens document. */
export function screensDocumentHeaders(connectSources: readonly string[]): Record<string, string> {
  return {
    'content-security-policy': screensContentSecurityPolicy(connectSources),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), hid=(), serial=(), payment=()',
  };
}
