/**
 * An amount in words, as on a check ("One hundred twenty-five thousand dollars and fifty cents"), so
 * a confirmation can say a large amount two ways and a slipped zero shows.
 */
const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = [
  [1_000_000, 'million'],
  [1_000, 'thousand'],
] as const;

/** 0 to 999 in words. */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds > 0) parts.push(`${ONES[hundreds]} hundred`);
  if (rest > 0 || hundreds === 0) {
    const tens = Math.floor(rest / 10);
    const ones = rest % 10;
    parts.push(
      rest < 20 ? (ONES[rest] ?? '') : ones === 0 ? (TENS[tens] ?? '') : `${TENS[tens]}-${ONES[ones]}`,
    );
  }
  return parts.join(' ');
}

/** A whole number below a billion in words. */
export function numberInWords(n: number): string {
  if (n < 1000) return belowThousand(n);
  const parts: string[] = [];
  let rest = n;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${belowThousand(count)} ${name}`);
    rest %= size;
  }
  if (rest > 0) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/** Dollars and cents in words, starting with a capital: "Twelve dollars and five cents". */
export function amountInWords(cents: number): string {
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  const dollarWords = `${numberInWords(dollars)} ${dollars === 1 ? 'dollar' : 'dollars'}`;
  const words =
    rest === 0 ? dollarWords : `${dollarWords} and ${numberInWords(rest)} ${rest === 1 ? 'cent' : 'cents'}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
