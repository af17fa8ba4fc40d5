/**
 * After a restart: the payments of the last run whose answer never reached the screens, each with
 * what the engine did with it (from the ledger), or that it never reached the engine and nothing was
 * done. Shown once, until the cashier has read it.
 */
import { useEffect, useState } from 'react';
import type { InterruptedAttempt } from '../../../shared/ipc/attempts-contract';
import { displayMoney, parseMoney } from '../../../shared/money';
import { useTerminal } from '../terminal/terminal-context';
import { timeLabel } from '../transactions/present';
import { Dialog } from '../ui/Dialog';
import { useCounterOpen } from '../ui/counter-open';

const TYPE_WORDS: Record<InterruptedAttempt['type'], string> = {
  SALE: 'Sale',
  'FORCED SALE': 'Forced sale',
  AUTH: 'Tab',
  CAPTURE: 'Tab capture',
  REFUND: 'Refund',
  VOID: 'Void',
};

const RESULT_WORDS = {
  Approved: 'Approved',
  Declined: 'Declined: nothing was charged',
  Rejected: 'Not accepted: nothing was charged',
  Error: 'Not completed: nothing was charged',
} as const;

export function InterruptedPayments() {
  const { bridge } = useTerminal();
  const [attempts, setAttempts] = useState<InterruptedAttempt[]>([]);
  const open = useCounterOpen();
  // Read at each sign-in: a locked counter is told nothing.
  useEffect(() => {
    if (!open) return;
    let current = true;
    bridge
      .invoke('attempts:interrupted', undefined)
      .then((found) => {
        if (current) setAttempts(found);
      })
      .catch((error: unknown) => console.error('Tender: the interrupted payments could not be read.', error));
    return () => {
      current = false;
    };
  }, [bridge, open]);

  if (attempts.length === 0) return null;
  const dismiss = () => {
    const keys = attempts.map((attempt) => attempt.idempotencyKey);
    setAttempts([]);
    void bridge.invoke('attempts:dismiss', { idempotencyKeys: keys }).catch((error: unknown) => {
      console.error('Tender: the interrupted payments could not be marked as seen.', error);
    });
  };

  return (
    <Dialog title="Payments interrupted by the last restart" onCancel={dismiss} testId="interrupted-payments">
      <div className="dialog-body">
        <p>
          Tender stopped before these answers reached the screen. Here is what the payment engine did with
          each:
        </p>
        <ul className="interrupted-list">
          {attempts.map((attempt) => {
            const { outcome } = attempt;
            const amount = attempt.amount && parseMoney(attempt.amount);
            return (
              <li key={attempt.idempotencyKey} data-testid="interrupted-payment">
                <span className="interrupted-what">
                  {TYPE_WORDS[attempt.type]}
                  {amount && amount.ok ? ` ${displayMoney(amount.cents)}` : ''} · {attempt.card} ·{' '}
                  {timeLabel(attempt.at)}
                </span>
                <span
                  className={
                    outcome.state === 'answered' && outcome.result === 'Approved'
                      ? 'pill pill-good'
                      : 'pill pill-warn'
                  }
                >
                  {outcome.state === 'answered'
                    ? `${RESULT_WORDS[outcome.result]}${outcome.id ? ` (#${outcome.id})` : ''}`
                    : 'Never reached the payment engine: nothing was done'}
                </span>
              </li>
            );
          })}
        </ul>
        <p className="note">
          Check with the customer before charging again. History shows every transaction.
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={dismiss} data-autofocus>
          Got it
        </button>
      </div>
    </Dialog>
  );
}
