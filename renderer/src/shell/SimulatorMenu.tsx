/**
 * The simulated card reader's controls, shown only when the host runs the simulator (demos, tests).
 * Swipes are asked for by outcome; the host generates a genuine encrypted report for a test card and
 * feeds it through the same parsing as a real reader's.
 */
import { useRef, useState } from 'react';
import type { SimulatedSwipe } from '../../../shared/ipc/contract';
import { useTerminal } from '../terminal/terminal-context';
import { CardIcon } from '../ui/icons';

const SWIPES: { card: SimulatedSwipe; label: string }[] = [
  { card: 'approved-visa', label: 'Visa that approves' },
  { card: 'approved-mastercard', label: 'Mastercard that approves' },
  { card: 'approved-amex', label: 'Amex that approves' },
  { card: 'declined', label: 'Card the issuer declines' },
  { card: 'insufficient-funds', label: 'Card without funds' },
  { card: 'processor-error', label: 'Card the processor fails on' },
  { card: 'expired', label: 'Expired card' },
  { card: 'bad-read', label: 'Bad swipe' },
];

export function SimulatorMenu() {
  const { bridge, reader } = useTerminal();
  const menu = useRef<HTMLDetailsElement>(null);
  const [problem, setProblem] = useState<string>();

  const run = (action: Promise<unknown>) => {
    if (menu.current) menu.current.open = false;
    setProblem(undefined);
    action.catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  };
  const plugged = reader.state !== 'waiting';

  return (
    <div className="sim">
      <details className="sim-menu" ref={menu}>
        <summary className="sim-menu-button">
          <CardIcon className="sim-menu-icon" />
          <span className="sim-menu-label">Test swipes</span>
        </summary>
        <div className="sim-menu-panel" role="group" aria-label="Simulated card reader">
          <p className="sim-menu-note">Simulated reader: test cards only, never real card data.</p>
          <ul>
            {SWIPES.map(({ card, label }) => (
              <li key={card}>
                <button type="button" onClick={() => run(bridge.invoke('simulator:swipe', { card }))}>
                  Swipe: {label}
                </button>
              </li>
            ))}
            <li className="sim-menu-separator">
              <button
                type="button"
                onClick={() => run(bridge.invoke('simulator:plug', { plugged: !plugged }))}
              >
                {plugged ? 'Unplug the reader' : 'Plug the reader in'}
              </button>
            </li>
          </ul>
        </div>
      </details>
      {problem && (
        <p className="sim-menu-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
