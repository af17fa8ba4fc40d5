/**
 * DUKPT key derivation (ANSI X9.24-1 TDES and X9.24-3 AES-128) and the TDES-CBC cipher that MagTek
 * readers encrypt tracks with. Keys and data are Buffers; nothing here ever formats a key as text,
 * so a key cannot leak into a message by accident.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';

/** The BDK of the ANSI X9.24 examples. Test readers ship injected with it; real ones never are. */
export const ANSI_TEST_BDK = '0123456789ABCDEFFEDCBA9876543210';

/**
 * Whether two DES keys, in hex, are the same key. DES uses only the high seven bits of each key byte
 * (the low bit is parity), so keys that differ only there encrypt alike and share a check value.
 */
export function sameDesKey(aHex: string, bHex: string): boolean {
  const [a, b] = [aHex, bHex].map((text) =>
    /^(?:[0-9A-Fa-f]{2})+$/.test(text) ? Buffer.from(text, 'hex') : undefined,
  );
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return a.every((byte, index) => (byte & 0xfe) === ((b[index] ?? 0) & 0xfe));
}

/** Whether a BDK is the public ANSI test key, whatever its parity bits: swipes under it are not secret. */
export function isAnsiTestBdk(bdkHex: string): boolean {
  return sameDesKey(bdkHex, ANSI_TEST_BDK);
}

export const TDES_KSN_BYTES = 10;
/** The low 21 bits of a TDES KSN count transactions. */
const COUNTER_MASK = 0x1f_ffff;
/** X9.24-1 never lets the originating device use a counter with more than ten 1-bits. */
const MAX_COUNTER_ONE_BITS = 10;
const KEY_MASK = Buffer.from('C0C0C0C000000000C0C0C0C000000000', 'hex');
const PIN_VARIANT = Buffer.from('00000000000000FF00000000000000FF', 'hex');
const DATA_VARIANT = Buffer.from('0000000000FF00000000000000FF0000', 'hex');
const BLOCK = 8;

export type TrackKeyVariant = 'pin' | 'data';

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) ^ (b[i] ?? 0);
  return out;
}

/** A double-length key K1K2 as the K1K2K1 triple that OpenSSL's des-ede3 takes. */
function tripleLength(key: Buffer): Buffer {
  if (key.length === 24) return key;
  if (key.length === 16) return Buffer.concat([key, key.subarray(0, 8)]);
  if (key.length === 8) return Buffer.concat([key, key, key]);
  throw new RangeError(`a DES key has 8, 16 or 24 bytes, not ${key.length}`);
}

function ecb(algorithm: string, key: Buffer, block: Buffer): Buffer {
  const cipher = createCipheriv(algorithm, key, null).setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

/**
 * Single DES of one block. OpenSSL 3 moved plain DES to its legacy provider, but EDE with three equal
 * keys is DES itself, and des-ede3 stays in the default provider.
 */
export function desEncryptBlock(key: Buffer, block: Buffer): Buffer {
  if (key.length !== 8) throw new RangeError('single DES takes an 8-byte key');
  return ecb('des-ede3-ecb', tripleLength(key), block);
}

/** TDES (EDE) of one block under a double- or triple-length key. */
export function tdesEncryptBlock(key: Buffer, block: Buffer): Buffer {
  return ecb('des-ede3-ecb', tripleLength(key), block);
}

/**
 * The key check value: the first three bytes of a zero block encrypted with the key. It names a key
 * so people can compare keys without ever seeing one.
 */
export function keyCheckValue(keyHex: string): string {
  return tdesEncryptBlock(Buffer.from(keyHex, 'hex'), Buffer.alloc(8))
    .subarray(0, 3)
    .toString('hex')
    .toUpperCase();
}

/** TDES-CBC with an all-zero IV, the last block zero-padded: how MagTek readers encrypt tracks. */
export function tdesCbcEncrypt(key: Buffer, data: Buffer): Buffer {
  const padded = Buffer.alloc(Math.ceil(data.length / BLOCK) * BLOCK);
  data.copy(padded);
  const cipher = createCipheriv('des-ede3-cbc', tripleLength(key), Buffer.alloc(BLOCK)).setAutoPadding(false);
  return Buffer.concat([cipher.update(padded), cipher.final()]);
}

/** The inverse of tdesCbcEncrypt; the zero padding stays for the caller to cut at its length. */
export function tdesCbcDecrypt(key: Buffer, data: Buffer): Buffer {
  if (data.length % BLOCK !== 0) throw new RangeError('TDES-CBC data is a whole number of 8-byte blocks');
  const decipher = createDecipheriv('des-ede3-cbc', tripleLength(key), Buffer.alloc(BLOCK)).setAutoPadding(
    false,
  );
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

// ---------------------------------------------------------------------------------------------
// TDES DUKPT (X9.24-1)

/** The transaction counter: the low 21 bits of the 10-byte KSN. */
export function ksnCounter(ksn: Buffer): number {
  assertTdesKsn(ksn);
  return (((ksn[7] ?? 0) << 16) | ((ksn[8] ?? 0) << 8) | (ksn[9] ?? 0)) & COUNTER_MASK;
}

function countOneBits(value: number): number {
  let bits = 0;
  for (let v = value; v !== 0; v >>>= 1) bits += v & 1;
  return bits;
}

/** A reader only ever sends counters with at most ten 1-bits; any other counter is forged or garbled. */
export function isValidKsnCounter(counter: number): boolean {
  return counter >= 0 && counter <= COUNTER_MASK && countOneBits(counter) <= MAX_COUNTER_ONE_BITS;
}

function assertTdesKsn(ksn: Buffer): void {
  if (ksn.length !== TDES_KSN_BYTES) throw new RangeError(`a TDES KSN has 10 bytes, not ${ksn.length}`);
}

function assertDoubleLengthKey(key: Buffer, what: string): void {
  if (key.length !== 16) throw new RangeError(`the ${what} must be a 16-byte (double-length) TDES key`);
}

/** The initial PIN encryption key that was injected into the reader whose KSN this is. */
export function tdesIpek(bdk: Buffer, ksn: Buffer): Buffer {
  assertDoubleLengthKey(bdk, 'BDK');
  assertTdesKsn(ksn);
  const initialKsn = Buffer.from(ksn.subarray(0, 8));
  initialKsn[7] = (initialKsn[7] ?? 0) & 0xe0;
  return Buffer.concat([tdesEncryptBlock(bdk, initialKsn), tdesEncryptBlock(xor(bdk, KEY_MASK), initialKsn)]);
}

/** X9.24-1's non-reversible key generation: one step down the key tree. */
function nonReversibleKeyGeneration(key: Buffer, register: Buffer): Buffer {
  const half = (k: Buffer): Buffer => {
    const left = k.subarray(0, 8);
    const right = k.subarray(8, 16);
    return xor(desEncryptBlock(left, xor(right, register)), right);
  };
  const right = half(key);
  const left = half(xor(key, KEY_MASK));
  return Buffer.concat([left, right]);
}

/** The base (future) key the reader used for this KSN's transaction, before any variant. */
export function tdesTransactionKey(ipek: Buffer, ksn: Buffer): Buffer {
  assertDoubleLengthKey(ipek, 'IPEK');
  const counter = ksnCounter(ksn);
  const register = Buffer.from(ksn.subarray(2, 10));
  // The counter spans the low 21 bits of the register's last three bytes.
  register[5] = (register[5] ?? 0) & 0xe0;
  register[6] = 0;
  register[7] = 0;
  let key = ipek;
  for (let bit = 0x10_0000; bit > 0; bit >>>= 1) {
    if ((counter & bit) === 0) continue;
    register[5] = (register[5] ?? 0) | ((bit >>> 16) & 0xff);
    register[6] = (register[6] ?? 0) | ((bit >>> 8) & 0xff);
    register[7] = (register[7] ?? 0) | (bit & 0xff);
    key = nonReversibleKeyGeneration(key, register);
  }
  return key;
}

export function tdesPinVariant(key: Buffer): Buffer {
  assertDoubleLengthKey(key, 'transaction key');
  return xor(key, PIN_VARIANT);
}

/** The data-encryption (request) variant, then the one-way step that keeps it from revealing the base key. */
export function tdesDataVariant(key: Buffer): Buffer {
  assertDoubleLengthKey(key, 'transaction key');
  const variant = xor(key, DATA_VARIANT);
  return Buffer.concat([
    tdesEncryptBlock(variant, variant.subarray(0, 8)),
    tdesEncryptBlock(variant, variant.subarray(8, 16)),
  ]);
}

/** The key a MagTek reader encrypted this KSN's tracks with. */
export function tdesTrackKey(bdk: Buffer, ksn: Buffer, variant: TrackKeyVariant): Buffer {
  const key = tdesTransactionKey(tdesIpek(bdk, ksn), ksn);
  return variant === 'data' ? tdesDataVariant(key) : tdesPinVariant(key);
}

// ---------------------------------------------------------------------------------------------
// AES DUKPT (X9.24-3-2017), AES-128 keys

export const AES_KEY_USAGE = {
  KEY_ENCRYPTION: 0x0002,
  PIN_ENCRYPTION: 0x1000,
  MAC_GENERATION: 0x2000,
  MAC_VERIFICATION: 0x2001,
  MAC_BOTH: 0x2002,
  DATA_ENCRYPT: 0x3000,
  DATA_DECRYPT: 0x3001,
  DATA_BOTH: 0x3002,
  KEY_DERIVATION: 0x8000,
  INITIAL_KEY: 0x8001,
} as const;
export type AesKeyUsage = (typeof AES_KEY_USAGE)[keyof typeof AES_KEY_USAGE];

const AES128_ALGORITHM = 0x0002;
const AES128_BITS = 128;
export const AES_INITIAL_KEY_ID_BYTES = 8;
const AES_COUNTER_BITS = 32;

function assertAes128Key(key: Buffer, what: string): void {
  if (key.length !== 16) throw new RangeError(`the ${what} must be a 16-byte AES-128 key`);
}

function assertInitialKeyId(initialKeyId: Buffer): void {
  if (initialKeyId.length !== AES_INITIAL_KEY_ID_BYTES)
    throw new RangeError(`an AES DUKPT initial key id has 8 bytes, not ${initialKeyId.length}`);
}

function assertAesCounter(counter: number): void {
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffff_ffff)
    throw new RangeError('an AES DUKPT transaction counter is a 32-bit unsigned integer');
}

function derivationData(usage: AesKeyUsage, tail: Buffer): Buffer {
  const data = Buffer.alloc(16);
  data[0] = 0x01; // version
  data[1] = 0x01; // key block counter: one block makes a 128-bit key
  data.writeUInt16BE(usage, 2);
  data.writeUInt16BE(AES128_ALGORITHM, 4);
  data.writeUInt16BE(AES128_BITS, 6);
  tail.copy(data, 8);
  return data;
}

function counterTail(initialKeyId: Buffer, counter: number): Buffer {
  const tail = Buffer.alloc(8);
  initialKeyId.copy(tail, 0, 4, 8);
  tail.writeUInt32BE(counter, 4);
  return tail;
}

function aesEncryptBlock(key: Buffer, block: Buffer): Buffer {
  return ecb('aes-128-ecb', key, block);
}

/** The initial key injected into a reader with this initial key id. */
export function aesDukptInitialKey(bdk: Buffer, initialKeyId: Buffer): Buffer {
  assertAes128Key(bdk, 'BDK');
  assertInitialKeyId(initialKeyId);
  return aesEncryptBlock(bdk, derivationData(AES_KEY_USAGE.INITIAL_KEY, initialKeyId));
}

/** The intermediate derivation key for a transaction counter, walked down from the initial key. */
export function aesDukptDerivationKey(initialKey: Buffer, initialKeyId: Buffer, counter: number): Buffer {
  assertAes128Key(initialKey, 'initial key');
  assertInitialKeyId(initialKeyId);
  assertAesCounter(counter);
  let key = initialKey;
  let working = 0;
  for (let shift = AES_COUNTER_BITS - 1; shift >= 0; shift--) {
    const bit = 2 ** shift;
    if (Math.floor(counter / bit) % 2 === 0) continue;
    working += bit;
    key = aesEncryptBlock(
      key,
      derivationData(AES_KEY_USAGE.KEY_DERIVATION, counterTail(initialKeyId, working)),
    );
  }
  return key;
}

/** A working key (data, PIN, MAC) for one transaction, from its derivation key. */
export function aesDukptWorkingKey(
  derivationKey: Buffer,
  initialKeyId: Buffer,
  counter: number,
  usage: AesKeyUsage,
): Buffer {
  assertAes128Key(derivationKey, 'derivation key');
  assertInitialKeyId(initialKeyId);
  assertAesCounter(counter);
  return aesEncryptBlock(derivationKey, derivationData(usage, counterTail(initialKeyId, counter)));
}

/** The working key of a 12-byte AES KSN (initial key id + 32-bit counter), straight from the BDK. */
export function aesDukptTransactionKey(bdk: Buffer, ksn: Buffer, usage: AesKeyUsage): Buffer {
  if (ksn.length !== 12) throw new RangeError(`an AES DUKPT KSN has 12 bytes, not ${ksn.length}`);
  const initialKeyId = ksn.subarray(0, AES_INITIAL_KEY_ID_BYTES);
  const counter = ksn.readUInt32BE(AES_INITIAL_KEY_ID_BYTES);
  const derivationKey = aesDukptDerivationKey(aesDukptInitialKey(bdk, initialKeyId), initialKeyId, counter);
  return aesDukptWorkingKey(derivationKey, initialKeyId, counter, usage);
}
