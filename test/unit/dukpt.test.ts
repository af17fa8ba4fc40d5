import { describe, expect, it } from 'vitest';
import {
  AES_KEY_USAGE,
  aesDukptDerivationKey,
  aesDukptInitialKey,
  aesDukptTransactionKey,
  aesDukptWorkingKey,
  ANSI_TEST_BDK,
  desEncryptBlock,
  isAnsiTestBdk,
  isValidKsnCounter,
  keyCheckValue,
  ksnCounter,
  tdesCbcDecrypt,
  tdesCbcEncrypt,
  tdesDataVariant,
  tdesIpek,
  tdesPinVariant,
  tdesTrackKey,
  tdesTransactionKey,
} from '../../electron/gateway/crypto/dukpt';
import { SAMPLE } from '../fixtures/magtek-sample';

const hex = (text: string): Buffer => Buffer.from(text, 'hex');
const show = (bytes: Buffer): string => bytes.toString('hex').toUpperCase();
const BDK = hex(ANSI_TEST_BDK);
const ksn = (counter: string): Buffer => hex(`FFFF9876543210${counter}`);

describe('single DES built on des-ede3', () => {
  it('gives the classic DES known answer (key 133457799BBCDFF1)', () => {
    expect(show(desEncryptBlock(hex('133457799BBCDFF1'), hex('0123456789ABCDEF')))).toBe('85E813540F0AB405');
  });
});

/** A key with the low bit of every byte, which DES ignores (parity), flipped. */
const parityFlipped = (keyHex: string): string => show(Buffer.from(hex(keyHex).map((byte) => byte ^ 1)));

describe('the ANSI test BDK', () => {
  it('is recognised in any letter case and whatever its parity bits, since DES ignores them', () => {
    const flipped = parityFlipped(ANSI_TEST_BDK);
    expect(flipped).not.toBe(ANSI_TEST_BDK);
    // The same key: the same check value, and the same key for every swipe.
    expect(keyCheckValue(flipped)).toBe(keyCheckValue(ANSI_TEST_BDK));
    expect(show(tdesTrackKey(hex(flipped), ksn('E00001'), 'data'))).toBe(
      show(tdesTrackKey(BDK, ksn('E00001'), 'data')),
    );
    for (const key of [ANSI_TEST_BDK, ANSI_TEST_BDK.toLowerCase(), flipped, flipped.toLowerCase()])
      expect(isAnsiTestBdk(key), key).toBe(true);
  });

  it('is not any other key: one that differs in a bit DES uses, or is not a whole key', () => {
    // 0x02 is the lowest bit DES uses.
    const other = show(
      Buffer.from(hex(ANSI_TEST_BDK).map((byte, index) => (index === 15 ? byte ^ 2 : byte))),
    );
    expect(keyCheckValue(other)).not.toBe(keyCheckValue(ANSI_TEST_BDK));
    for (const key of [
      other,
      '89ABCDEF0123456776543210FEDCBA98',
      ANSI_TEST_BDK.slice(0, 30),
      `${ANSI_TEST_BDK}00`,
      '',
    ])
      expect(isAnsiTestBdk(key), key).toBe(false);
  });
});

describe('TDES DUKPT (X9.24-1) with the ANSI test BDK', () => {
  it('derives the published IPEK from the initial KSN', () => {
    expect(show(tdesIpek(BDK, ksn('E00000')))).toBe('6AC292FAA1315B4D858AB3A3D7D5933A');
  });

  it('derives the IPEK from any KSN of the same reader, ignoring its counter', () => {
    expect(show(tdesIpek(BDK, ksn('E00015')))).toBe('6AC292FAA1315B4D858AB3A3D7D5933A');
  });

  const ipek = tdesIpek(BDK, ksn('E00000'));

  it.each([
    [
      'E00001',
      '042666B49184CFA368DE9628D0397BC9',
      '042666B49184CF5C68DE9628D0397B36',
      '448D3F076D8304036A55A3D7E0055A78',
    ],
    [
      'E00002',
      'C46551CEF9FD24B0AA9AD834130D3BC7',
      'C46551CEF9FD244FAA9AD834130D3B38',
      'F1BE73B36135C5C26CF937D50ABBE5AF',
    ],
    [
      'E00003',
      '0DF3D9422ACA56E547676D07AD6BADFA',
      '0DF3D9422ACA561A47676D07AD6BAD05',
      'EEEEF522C67239E4A2A65FEBF4C511F4',
    ],
    [
      'E00004',
      '279C0F6AEED0BE652B2C733E1383AE91',
      '279C0F6AEED0BE9A2B2C733E1383AE6E',
      'BCF2610997C3AC3C5F13AE965A1B773B',
    ],
    [
      'E00005',
      '5F8DC6D2C845C125508DDC048093B83F',
      '5F8DC6D2C845C1DA508DDC048093B8C0',
      'F3054D8B7471284BDB4EE18AFC3B091B',
    ],
  ])(
    'counter %s: base key, PIN variant and data key match the published vectors',
    (counter, base, pin, data) => {
      const key = tdesTransactionKey(ipek, ksn(counter));
      expect(show(key)).toBe(base);
      expect(show(tdesPinVariant(key))).toBe(pin);
      expect(show(tdesDataVariant(key))).toBe(data);
    },
  );

  it.each([
    ['E00008', '27F66D5244FF62E1AA6F6120EDEB4280'],
    ['E00010', '59598DCBD9BD94C094165CE453585F57'],
    ['E00015', 'E161D1956A61F6D2F37AFD7F9CC3699A'],
  ])('counter %s: the base key matches the published vector', (counter, base) => {
    expect(show(tdesTransactionKey(ipek, ksn(counter)))).toBe(base);
  });

  it('gives the PIN-variant track key of the manual sample (counter 8) straight from BDK and KSN', () => {
    expect(show(tdesTrackKey(BDK, hex(SAMPLE.ksn), 'pin'))).toBe(SAMPLE.trackKey);
    expect(show(tdesPinVariant(tdesTransactionKey(ipek, ksn('E00008'))))).toBe(SAMPLE.trackKey);
  });

  it('gives the data-variant track key after the one-way step, not the bare variant', () => {
    const base = tdesTransactionKey(ipek, ksn('E00001'));
    expect(show(tdesTrackKey(BDK, ksn('E00001'), 'data'))).toBe('448D3F076D8304036A55A3D7E0055A78');
    const bareVariant = Buffer.from(base);
    for (const index of [5, 13]) bareVariant[index] = (bareVariant[index] ?? 0) ^ 0xff;
    expect(show(tdesDataVariant(base))).not.toBe(show(bareVariant));
  });

  it('reads the 21-bit counter from the KSN', () => {
    expect(ksnCounter(hex(SAMPLE.ksn))).toBe(8);
    expect(ksnCounter(hex('FFFF9876543210FFFFFF'))).toBe(0x1fffff);
  });

  it('accepts counters with at most ten 1-bits and refuses the rest', () => {
    expect(isValidKsnCounter(0x3ff)).toBe(true);
    expect(isValidKsnCounter(0x1ff800)).toBe(true);
    expect(isValidKsnCounter(0x7ff)).toBe(false);
    expect(isValidKsnCounter(0x1fffff)).toBe(false);
  });

  it('refuses keys and KSNs of the wrong length', () => {
    expect(() => tdesIpek(hex('0123456789ABCDEF'), ksn('E00000'))).toThrow(RangeError);
    expect(() => tdesIpek(BDK, hex('FFFF9876543210E0'))).toThrow(RangeError);
    expect(() => tdesTransactionKey(hex('00'), ksn('E00001'))).toThrow(RangeError);
  });
});

describe('TDES-CBC with a zero IV', () => {
  const key = hex(SAMPLE.trackKey);

  it.each([0, 1, 2] as const)('decrypts the manual sample track %i to its exact clear text', (track) => {
    const clear = tdesCbcDecrypt(key, hex(SAMPLE.encryptedTracks[track]));
    expect(clear.subarray(0, SAMPLE.absoluteLengths[track]).toString('latin1')).toBe(
      SAMPLE.clearTracks[track],
    );
    expect(clear.subarray(SAMPLE.absoluteLengths[track]).every((byte) => byte === 0)).toBe(true);
  });

  it("decrypts the keyboard string's track 3 to a track starting with +", () => {
    const clear = tdesCbcDecrypt(key, hex(SAMPLE.keyboardTrack3.encrypted));
    expect(clear.toString('latin1').replace(/\0+$/, '')).toBe(SAMPLE.keyboardTrack3.clear);
  });

  it('encrypts a zero-padded track to the published ciphertext', () => {
    const encrypted = tdesCbcEncrypt(key, Buffer.from(SAMPLE.clearTracks[0], 'latin1'));
    expect(show(encrypted)).toBe(SAMPLE.encryptedTracks[0]);
  });

  it('refuses ciphertext that is not whole 8-byte blocks', () => {
    expect(() => tdesCbcDecrypt(key, hex('00112233'))).toThrow(RangeError);
  });
});

describe('AES DUKPT (X9.24-3), AES-128', () => {
  const bdk = hex('FEDCBA9876543210F1F1F1F1F1F1F1F1');
  const initialKeyId = hex('1234567890123456');
  const initialKey = aesDukptInitialKey(bdk, initialKeyId);

  it('derives the published initial key', () => {
    expect(show(initialKey)).toBe('1273671EA26AC29AFA4D1084127652A1');
  });

  it.each([
    [1, '4F21B565BAD9835E112B6465635EAE44', 'A35C412EFD41FDB98B69797C02DCD08F'],
    [2, '2F34D68DE10F68D38091A73B9E7C437C', 'D639514AA33AC43AD9229E433D6D4E5B'],
  ])(
    'counter %i: derivation key and data-encryption key match the published vectors',
    (counter, derivation, data) => {
      const derivationKey = aesDukptDerivationKey(initialKey, initialKeyId, counter);
      expect(show(derivationKey)).toBe(derivation);
      expect(show(aesDukptWorkingKey(derivationKey, initialKeyId, counter, AES_KEY_USAGE.DATA_ENCRYPT))).toBe(
        data,
      );
    },
  );

  it('derives the same data key from a 12-byte KSN in one call', () => {
    const aesKsn = Buffer.concat([initialKeyId, hex('00000002')]);
    expect(show(aesDukptTransactionKey(bdk, aesKsn, AES_KEY_USAGE.DATA_ENCRYPT))).toBe(
      'D639514AA33AC43AD9229E433D6D4E5B',
    );
  });

  it('gives different keys for different usages', () => {
    const derivationKey = aesDukptDerivationKey(initialKey, initialKeyId, 1);
    const encrypt = aesDukptWorkingKey(derivationKey, initialKeyId, 1, AES_KEY_USAGE.DATA_ENCRYPT);
    const pin = aesDukptWorkingKey(derivationKey, initialKeyId, 1, AES_KEY_USAGE.PIN_ENCRYPTION);
    expect(show(pin)).not.toBe(show(encrypt));
  });

  it('refuses a BDK, initial key id or counter of the wrong size', () => {
    expect(() => aesDukptInitialKey(hex('00'), initialKeyId)).toThrow(RangeError);
    expect(() => aesDukptInitialKey(bdk, hex('1234'))).toThrow(RangeError);
    expect(() => aesDukptDerivationKey(initialKey, initialKeyId, 2 ** 32)).toThrow(RangeError);
  });
});
