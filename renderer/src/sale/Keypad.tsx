/**
 * The touch keypad. Its keys never take the keyboard focus (a tap would otherwise leave Enter
 * pressing that key again); keyboard users type the digits directly. The keys type into the amount,
 * or into Invoice or Order number while one of them has the focus, and say which.
 */
import type { MouseEvent } from 'react';
import { displayMoney } from '../../../shared/money';
import { ArrowRightIcon, BackspaceIcon } from '../ui/icons';
import { typeKey, useFocusedPadField } from '../ui/pad-target';
import type { AmountKey } from './amount';
import type { SaleAction } from './sale-state';

const KEYS: AmountKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0'];
const keepFocus = (event: MouseEvent) => event.preventDefault();

export function Keypad({ cents, act }: { cents: number; act: (action: SaleAction) => void }) {
  const field = useFocusedPadField();
  const press = (key: AmountKey | 'back') => {
    if (field) typeKey(field, key);
    else act(key === 'back' ? { type: 'backspace' } : { type: 'amount-key', key });
  };
  return (
    <div className="keypad-wrap">
      <p className="pad-target" data-testid="sale-pad-target">
        Keys type into <strong>{field?.dataset.padField ?? 'Amount'}</strong>
      </p>
      <div className="keypad" role="group" aria-label="Amount keys">
        {KEYS.map((key) => (
          <button
            key={key}
            type="button"
            className="key"
            tabIndex={-1}
            onMouseDown={keepFocus}
            onClick={() => press(key)}
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
          onClick={() => press('back')}
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
