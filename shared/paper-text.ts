/**
 * Text for a receipt printer's paper, a fixed number of columns wide (32 on 58 mm paper, 42 or 48 on
 * 80 mm): words wrapped to the width, centred titles, and a label on the left with its value on the
 * right. Receipts (made by the engine) and the end-of-day report (made by the screens) are laid out
 * with the same pieces, so both keep within the paper.
 */

/** Words broken onto lines of at most `width` characters; a word longer than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
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

/** Label on the left, value on the right; a value too long for the line goes under its label. */
export function labelled(label: string, value: string, width: number): string[] {
  if (label.length + 1 + value.length <= width) {
    return [`${label}${' '.repeat(width - label.length - value.length)}${value}`];
  }
  return [label, ...wrap(value, width - 2).map((line) => `${' '.repeat(width - line.length)}${line}`)];
}
