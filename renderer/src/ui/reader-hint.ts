import type { ReaderStatus } from '../../../shared/ipc/contract';

/** What the swipe panel says about the reader while it waits for a card. */
export function readerHint(reader: ReaderStatus): string | undefined {
  switch (reader.state) {
    case 'waiting':
      return 'No card reader is plugged in. Plug in the MagTek reader, or key the card in.';
    case 'problem':
      return reader.message;
    case 'off':
      return 'This terminal has no card reader. Key the card in.';
    case 'connected':
      return undefined;
  }
}
