/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR. Check value of "123456789": 0x29B1. */
export function crc16CcittFalse(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A 16-bit value as MagTek's swipe string writes it: four hex digits, low byte first. */
export function hexLowByteFirst(value: number): string {
  const hex = (byte: number): string => byte.toString(16).toUpperCase().padStart(2, '0');
  return hex(value & 0xff) + hex((value >>> 8) & 0xff);
}

/** The inverse of hexLowByteFirst, for four hex digits already checked. */
export function readHexLowByteFirst(text: string): number {
  return parseInt(text.slice(0, 2), 16) | (parseInt(text.slice(2, 4), 16) << 8);
}
