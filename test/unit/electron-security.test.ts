import { describe, expect, it } from 'vitest';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import {
  CERTIFICATE_ACCEPTED,
  CERTIFICATE_REJECTED,
  gatewayPortFrom,
  rendererFileFor,
  rendererOrigins,
  verifyCertificate,
} from '../../electron/main/security';

describe('the desktop shell trusts exactly its own engine', () => {
  it('accepts the engine certificate on 127.0.0.1 and nothing else', async () => {
    const engine = (await createLoopbackCertificate()).certificatePem;
    const other = (await createLoopbackCertificate()).certificatePem;
    expect(verifyCertificate({ hostname: '127.0.0.1', pem: engine }, engine)).toBe(CERTIFICATE_ACCEPTED);
    expect(verifyCertificate({ hostname: '127.0.0.1', pem: engine.replace(/\n/g, '\r\n') }, engine)).toBe(
      CERTIFICATE_ACCEPTED,
    );
    expect(verifyCertificate({ hostname: '127.0.0.1', pem: other }, engine)).toBe(CERTIFICATE_REJECTED);
    expect(verifyCertificate({ hostname: 'example.com', pem: engine }, engine)).toBe(CERTIFICATE_REJECTED);
  });

  it('serves renderer files from its own scheme and never outside the renderer folder', () => {
    expect(rendererFileFor('tender://app/index.html', '/opt/tender/renderer')).toBe(
      '/opt/tender/renderer/index.html',
    );
    expect(rendererFileFor('tender://app/', '/opt/tender/renderer')).toBe('/opt/tender/renderer/index.html');
    expect(rendererFileFor('tender://app/../secrets', '/opt/tender/renderer')).toBe(
      '/opt/tender/renderer/secrets',
    );
    expect(rendererFileFor('tender://app/%2e%2e/%2e%2e/etc/passwd', '/opt/tender/renderer')).toBe(
      '/opt/tender/renderer/etc/passwd',
    );
    expect(rendererFileFor('tender://app/..%2f..%2fetc/passwd', '/opt/tender/renderer')).toBeUndefined();
    expect(rendererFileFor('tender://other/index.html', '/opt/tender/renderer')).toBeUndefined();
    expect(rendererFileFor('tender://app/a%00b', '/opt/tender/renderer')).toBeUndefined();
  });

  it('allows the renderer origin, or the dev server while developing', () => {
    expect(rendererOrigins(undefined)).toEqual(['tender://app']);
    expect(rendererOrigins('http://localhost:5173/')).toEqual(['http://localhost:5173']);
  });

  it('reads the engine port from TENDER_PORT and refuses a bad one', () => {
    expect(gatewayPortFrom({})).toBe(8443);
    expect(gatewayPortFrom({ TENDER_PORT: '9443' })).toBe(9443);
    expect(() => gatewayPortFrom({ TENDER_PORT: '70000' })).toThrow(/TENDER_PORT/);
  });
});
