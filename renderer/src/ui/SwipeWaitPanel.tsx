/**
 * Waiting for a card: the reader's state, what happens once the card is read, a way to key the card
 * in instead, and whatever else the screen offers (`children`, after the key-in button).
 */
import type { ReactNode } from 'react';
import { readerHint } from './reader-hint';
import { useTerminal } from '../terminal/terminal-context';
import { KeyboardIcon, SwipeIllustration } from './icons';
import { KeyHint } from './KeyHint';
import { ProblemNotice } from './ProblemNotice';
import { useStepPause } from './step-pause';

export function SwipeWaitPanel({
  waiting,
  notice,
  onKeyIn,
  className,
  children,
}: {
  /** What the screen does once the card is read, while the reader is fine. */
  waiting: string;
  notice: string | undefined;
  onKeyIn(): void;
  className?: string;
  children?: ReactNode;
}) {
  const { reader, link } = useTerminal();
  // Where Charge was a moment ago: a double tap on it must not key the card in.
  const { paused, guard } = useStepPause();
  const ready = reader.state === 'connected' && link === 'up';
  const hint =
    link === 'up' ? readerHint(reader) : 'Swipes cannot reach this screen until Tender reconnects.';
  return (
    <div className={className ? `card-panel ${className}` : 'card-panel'} data-testid="waiting-for-swipe">
      <div className={ready ? 'swipe-stage' : 'swipe-stage swipe-stage-idle'}>
        <SwipeIllustration />
      </div>
      <h2 className="card-panel-title">{ready ? 'Swipe the card' : 'Key in the card'}</h2>
      <p className="card-panel-text" role="status">
        {hint ?? waiting}
      </p>
      <ProblemNotice problem={notice} />
      <div className="card-panel-actions">
        <button
          type="button"
          className={ready ? 'button button-secondary' : 'button button-primary'}
          aria-disabled={paused || undefined}
          onClick={guard(onKeyIn)}
          autoFocus
        >
          <KeyboardIcon className="button-icon" />
          Key in the card
          <KeyHint>K</KeyHint>
        </button>
        {children}
      </div>
    </div>
  );
}
