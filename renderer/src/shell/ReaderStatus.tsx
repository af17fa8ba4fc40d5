/** The card reader's status as the cashier sees it: a badge in the top bar, and the fix when it has a problem. */
import type { ReaderStatus } from '../../../shared/ipc/contract';
import { useTerminal, type Terminal } from '../terminal/terminal-context';
import { AlertIcon } from '../ui/icons';

type Tone = 'good' | 'waiting' | 'bad' | 'off';

function describe(reader: ReaderStatus, link: Terminal['link']): { tone: Tone; label: string } {
  if (link === 'reconnecting') return { tone: 'waiting', label: 'Reconnecting to Tender…' };
  switch (reader.state) {
    case 'connected':
      return { tone: 'good', label: 'Card reader ready' };
    case 'waiting':
      return { tone: 'waiting', label: 'Waiting for card reader' };
    case 'problem':
      return { tone: 'bad', label: 'Card reader problem' };
    case 'off':
      return { tone: 'off', label: 'No card reader' };
  }
}

export function ReaderStatusBadge() {
  const { reader, link } = useTerminal();
  const { tone, label } = describe(reader, link);
  return (
    <div
      className={`reader-badge reader-badge-${tone}`}
      role="status"
      aria-live="polite"
      data-reader-state={reader.state}
    >
      <span className="reader-dot" aria-hidden="true" />
      <span>{label}</span>
      {reader.state === 'connected' && reader.simulated && <span className="reader-tag">Simulated</span>}
    </div>
  );
}

export function ReaderBanner() {
  const { reader, link } = useTerminal();
  if (link === 'reconnecting') {
    return (
      <div className="banner banner-waiting" role="alert">
        <AlertIcon className="banner-icon" />
        <p>
          <strong>Lost the connection to Tender.</strong> Reconnecting by itself. Until it is back, swipes do
          not reach this screen and a charge cannot go through: it ends with Check again, which finishes it
          once Tender is back.
        </p>
      </div>
    );
  }
  if (reader.state !== 'problem') return null;
  return (
    <div className="banner banner-bad" role="alert">
      <AlertIcon className="banner-icon" />
      <p>
        <strong>Card reader problem.</strong> {reader.message}
      </p>
    </div>
  );
}
