/** Signatures as a person draws them, in pad units, for the tests of keeping and printing them. */

/** A long wavy stroke and a short crossing one. */
export function sampleSignature(): number[][] {
  const wave: number[] = [];
  for (let x = 100; x <= 1000; x += 15) wave.push(x, Math.round(200 + 80 * Math.sin(x / 60)));
  return [wave, [400, 120, 430, 300, 460, 320]];
}
