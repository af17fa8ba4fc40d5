/**
 * An on-screen keyboard for an email address, for a screen with no keyboard of its own: letters,
 * digits, the few signs addresses use, and @ and .com keys. A hardware keyboard types into the field
 * as well. The address is checked by the host, which says what is wrong with it.
 */
import type { MouseEvent } from 'react';
import { BackspaceIcon } from '../ui/icons';
import { CustomerProblem } from './CustomerProblem';

const ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'] as const;
const SIGNS = ['@', '.', '-', '_', '.com'] as const;

/** An address is at most this long (RFC 5321's path limit, as the host checks it). */
const MAX_ADDRESS = 254;

const keepFocus = (event: MouseEvent) => event.preventDefault();

export function EmailKeyboard({
  address,
  onChange,
  problem,
  sending,
  onSend,
  onBack,
}: {
  address: string;
  onChange(address: string): void;
  problem: string | undefined;
  sending: boolean;
  onSend(): void;
  onBack(): void;
}) {
  const type = (text: string) => onChange(`${address}${text}`.slice(0, MAX_ADDRESS));
  return (
    <section className="customer-email" aria-labelledby="customer-title">
      <form
        className="email-field"
        onSubmit={(event) => {
          event.preventDefault();
          if (address.trim() !== '' && !sending) onSend();
        }}
      >
        <label className="email-label" id="customer-title" htmlFor="customer-email">
          Your email address
        </label>
        <input
          id="customer-email"
          className="input email-input"
          type="email"
          inputMode="none"
          autoComplete="off"
          spellCheck={false}
          maxLength={MAX_ADDRESS}
          value={address}
          aria-invalid={problem !== undefined || undefined}
          aria-describedby={problem ? 'email-problem' : undefined}
          onChange={(event) => onChange(event.target.value.replace(/\s/g, ''))}
        />
      </form>
      <CustomerProblem problem={problem} id="email-problem" />
      <div className="email-keys" role="group" aria-label="Keyboard">
        {ROWS.map((row) => (
          <div className="email-row" key={row}>
            {[...row].map((key) => (
              <button
                key={key}
                type="button"
                className="email-key"
                tabIndex={-1}
                disabled={sending}
                onMouseDown={keepFocus}
                onClick={() => type(key)}
              >
                {key}
              </button>
            ))}
          </div>
        ))}
        <div className="email-row">
          {SIGNS.map((key) => (
            <button
              key={key}
              type="button"
              className={key === '.com' ? 'email-key email-key-wide' : 'email-key'}
              tabIndex={-1}
              disabled={sending}
              onMouseDown={keepFocus}
              onClick={() => type(key)}
            >
              {key}
            </button>
          ))}
          <button
            type="button"
            className="email-key email-key-wide"
            tabIndex={-1}
            disabled={sending}
            aria-label="Delete the last character"
            onMouseDown={keepFocus}
            onClick={() => onChange(address.slice(0, -1))}
          >
            <BackspaceIcon className="customer-pad-icon" />
          </button>
        </div>
      </div>
      <div className="customer-actions">
        <button
          type="button"
          className="button button-secondary customer-button"
          disabled={sending}
          onClick={onBack}
        >
          Back
        </button>
        <button
          type="button"
          className="button button-primary customer-button"
          disabled={sending || address.trim() === ''}
          onClick={onSend}
        >
          {sending ? 'Sending…' : 'Send receipt'}
        </button>
      </div>
    </section>
  );
}
