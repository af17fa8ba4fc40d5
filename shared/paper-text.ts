/**
 * Text for a receipt printer's paper, a fixed number of columns wide (32 on 58 mm paper, 42 or 48 on
 * 80 mm): words wrapped to the width, centred titles, and a label on the left with its value on the
 * right. Receipts (made by the engine) and the end-of-day report (made by the screens) are laid out
 * with the same pieces, so both keep within the paper.
 *
 * Every value goes through `oneLine` before it is laid out: an invoice, a name or a setting may hold
 * a line break or a tab, and on paper that would start a line the receipt never wrote (a second
 * TOTAL, a REFUND) or push one past the edge. Each piece here is one line of the paper or more, and
 * only the layout decides where a line ends.
 */

/** A run of spaces and control characters (line breaks, tabs, escapes, Unicode line separators). */
const BLANK_RUN = /[\s\p{Cc}\u2028\u2029]+/gu;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * A value as one line of paper can hold it: each run of control characters (with the spaces beside
 * it) one space, or nothing at either end. Spaces without a control character among them stay as
 * they were, so a label indented with spaces keeps its place.
 */
export function oneLine(value: string): string {
  return value.replace(BLANK_RUN, (run: string, at: number) => {
    if (!CONTROL.test(run)) return run;
    return at === 0 || at + run.length === value.length ? '' : ' ';
  });
}

/** Words broken onto lines of at most `width` characters; a word longer than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of oneLine(text).split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > width) {
      if (current) lines.push(current);
      current = '';
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    if (!current) current = rest;
    else if (current.length + 1 + rest.length <= width) current = `${current} ${rest}`;
    else {
      lines.push(current);
      current = rest;
    }
  }
  if (current) lines.push(current);
  return lines;
}

export function center(text: string, width: number): string[] {
  return wrap(text, width).map((line) => `${' '.repeat(Math.floor((width - line.length) / 2))}${line}`);
}

/**
 * Label on the left, value on the right; a value too long for the line goes under its label (and a
 * label too long for the paper is wrapped like words).
 */
export function labelled(label: string, value: string, width: number): string[] {
  const left = oneLine(label);
  const right = oneLine(value);
  if (left.length + 1 + right.length <= width) {
    return [`${left}${' '.repeat(width - left.length - right.length)}${right}`];
  }
  return [
    ...(left.length <= width ? [left] : wrap(left, width)),
    ...wrap(right, width - 2).map((line) => `${' '.repeat(width - line.length)}${line}`),
  ];
}
