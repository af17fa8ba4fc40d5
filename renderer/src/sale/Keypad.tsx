/**
 * The touch keypad. Its keys never take the keyboard focus (a tap would otherwise leave Enter
 * pressing that key again); keyboard users type the digits directly.
 */
import type { MouseEvent } from 'react';
import { displayMoney } from '../../../shared/money';
import { ArrowRightIcon, BackspaceIcon } from '../ui/icons';
import type { AmountKey } from './amount';
import type { SaleAction } from './sale-state';

const KEYS: AmountKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0'];
const keepFocus = (event: MouseEvent) => event.preventDefault();

export function Keypad({ cents, act }: { cents: number; act: (action: SaleAction) => void }) {
  return (
    <div className="keypad-wrap">
      <div className="keypad" role="group" aria-label="Amount keys">
        {KEYS.map((key) => (
          <button
            key={key}
            type="button"
            className="key"
            tabIndex={-1}
            onMouseDown={keepFocus}
            onClick={() => act({ type: 'amount-key', key })}
          >
            {key}
          </button>
        ))}
        <button
          type="button"
          className="key key-muted"
          tabIndex={-1}
          aria-label="Delete the last digit"
          onMouseDown={keepFocus}
          onClick={() => act({ type: 'backspace' })}
        >
          <BackspaceIcon className="key-icon" />
        </button>
      </div>
      <div className="keypad-actions">
        <button
          type="button"
          className="button button-quiet"
          disabled={cents === 0}
          onClick={() => act({ type: 'clear-amount' })}
        >
          Clear
        </button>
        <button
          type="button"
          className="button button-primary button-charge"
          disabled={cents === 0}
          onClick={() => act({ type: 'take-card' })}
        >
          {cents === 0 ? (
            'Enter an amount'
          ) : (
            <>
              Charge {displayMoney(cents)}
              <ArrowRightIcon className="button-icon" />
            </>
          )}
        </button>
      </div>
    </div>
  );
}
