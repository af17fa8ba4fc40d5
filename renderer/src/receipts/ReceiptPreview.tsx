/** A receipt as it comes off the printer: its text lines on a strip of paper as wide as the roll. */
import type { ReceiptPreview as Preview } from '../../../shared/ipc/contract';

export function ReceiptPaper({ preview }: { preview: Preview }) {
  return (
    <figure
      className="receipt-paper"
      style={{ ['--receipt-columns' as string]: preview.width }}
      data-testid="receipt-preview"
      data-copy={preview.copy}
      data-width={preview.width}
      // A long receipt scrolls inside its paper; the keyboard scrolls it too.
      tabIndex={0}
      aria-label={`${preview.title} receipt, ${preview.copy === 'check' ? 'check' : `${preview.copy} copy`}`}
    >
      <pre>{preview.lines.join('\n')}</pre>
    </figure>
  );
}
