/**
 * One of a batch's tables of figures (by type, server, cashier, counter, card brand), on screen and
 * in print: a column naming each line, then its numbers, with a line saying so when there are none.
 */
import type { ReactNode } from 'react';

export interface FiguresLine {
  key: string;
  testId?: string;
  /** The line's name, in the first column. */
  name: ReactNode;
  /** Its numbers, one per column after the first. */
  figures: readonly ReactNode[];
}

export function FiguresTable({
  caption,
  testId,
  columns,
  lines,
  empty,
  total,
  stressLast = true,
}: {
  caption: string;
  testId: string;
  /** The name column's heading, then each number column's. */
  columns: readonly string[];
  lines: readonly FiguresLine[];
  /** Said in place of the lines when there are none. */
  empty?: string;
  total?: FiguresLine;
  /** The last number of each line is the one read first (a total, the tips): in bold. */
  stressLast?: boolean;
}) {
  const [nameColumn, ...numberColumns] = columns;
  const cells = (figures: readonly ReactNode[], stress: boolean) =>
    figures.map((figure, index) => (
      <td key={index} className={stress && index === figures.length - 1 ? 'numeric strong' : 'numeric'}>
        {figure}
      </td>
    ));
  return (
    <table className="table table-compact" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{nameColumn}</th>
          {numberColumns.map((column) => (
            <th key={column} scope="col" className="numeric">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lines.length === 0 && empty && (
          <tr>
            <td colSpan={columns.length} className="muted">
              {empty}
            </td>
          </tr>
        )}
        {lines.map((line) => (
          <tr key={line.key} data-testid={line.testId}>
            <th scope="row">{line.name}</th>
            {cells(line.figures, stressLast)}
          </tr>
        ))}
      </tbody>
      {total && (
        <tfoot>
          <tr>
            <th scope="row">{total.name}</th>
            {cells(total.figures, false)}
          </tr>
        </tfoot>
      )}
    </table>
  );
}
