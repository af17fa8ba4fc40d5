import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLoopbackCertificate, isCertificateFresh } from '../../electron/gateway/crypto/certificate';
import { ensureTlsIdentity } from '../../electron/gateway/gateway';

describe('the loopback certificate', () => {
  it('is ECDSA P-256, self-signed, for 127.0.0.1, ::1 and localhost', async () => {
    const identity = await createLoopbackCertificate();
    const certificate = new X509Certificate(identity.certificatePem);
    expect(certificate.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBeDefined();
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkHost('example.com')).toBeUndefined();
    expect(certificate.checkPrivateKey(createPrivateKey(identity.privateKeyPem))).toBe(true);
  });

  it('is made once per data dir and kept, with a private key only the owner can read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tender-tls-'));
    try {
      const first = await ensureTlsIdentity(dir);
      const second = await ensureTlsIdentity(dir);
      expect(second.certificatePem).toBe(first.certificatePem);
      expect(readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8')).toBe(first.certificatePem);
      expect(statSync(join(dir, 'tls', 'key.pem')).mode & 0o077).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is renewed when it would lapse within a month', async () => {
    const identity = await createLoopbackCertificate();
    expect(isCertificateFresh(identity.certificatePem)).toBe(true);
    expect(isCertificateFresh(identity.certificatePem, new Date(Date.now() + 820 * 86_400_000))).toBe(false);
    expect(isCertificateFresh('not a certificate')).toBe(false);
  });
});
