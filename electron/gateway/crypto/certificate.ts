/**
 * The engine's TLS identity: an ECDSA P-256 certificate for 127.0.0.1, ::1 and localhost, made on
 * first run and kept in the data dir. Clients trust exactly this certificate (tls/cert.pem).
 */
import { webcrypto, X509Certificate } from 'node:crypto';

const VALIDITY_DAYS = 825;
/** Renew this long before expiry, so a terminal never starts with a certificate about to lapse. */
const RENEW_BEFORE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface TlsIdentity {
  certificatePem: string;
  privateKeyPem: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}

export async function createLoopbackCertificate(now = new Date()): Promise<TlsIdentity> {
  // Loaded only when a certificate is made, on first run and at renewal: the generator and its
  // ASN.1 codecs take 16 MB that a running engine has no use for. The codecs resolve through
  // decorators that need reflect-metadata loaded first.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: 'CN=Tender loopback gateway, O=Tender',
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + VALIDITY_DAYS * DAY_MS),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const privateKey = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    certificatePem: certificate.toString('pem') + '\n',
    privateKeyPem: pem('PRIVATE KEY', privateKey),
  };
}

/** True when the certificate is still valid for at least the renewal margin. */
export function isCertificateFresh(certificatePem: string, now = new Date()): boolean {
  try {
    const certificate = new X509Certificate(certificatePem);
    return new Date(certificate.validTo).getTime() - now.getTime() > RENEW_BEFORE_DAYS * DAY_MS;
  } catch {
    return false;
  }
}

/** SHA-256 fingerprint in the colon-separated form browsers and OpenSSL show. */
export function certificateFingerprint(certificatePem: string): string {
  return new X509Certificate(certificatePem).fingerprint256;
}
