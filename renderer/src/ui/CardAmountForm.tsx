/**
 * The first step of taking a card in a side panel (a tab, a refund with no sale): the amount, typed or
 * on the keypad, with one field of the screen's own beside it. The screen checks the form on submit
 * and then waits for the card; Esc or Cancel leaves.
 */
import { useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { displayMoney } from '../../../shared/money';
import { DigitPad } from './DigitPad';
import { ArrowRightIcon } from './icons';
import { MoneyInput } from './MoneyInput';
import { usePadTarget } from './pad-target';
import { ProblemNotice } from './ProblemNotice';
import { useTerminal } from '../terminal/terminal-context';
import { LargeAmountConfirm, needsAmountConfirm } from './LargeAmountConfirm';

type Props = {
  titleId: string;
  title: string;
  subtitle: string;
  amountLabel: string;
  amountTestId: string;
  cents: number;
  setCents: Dispatch<SetStateAction<number>>;
  /** The amount was typed into its field. */
  onTyped: () => void;
  /** The submit button's words while the amount is zero: "Enter the amount". */
  noAmountLabel: string;
  problem: string | undefined;
  onSubmit: () => void;
  onCancel: () => void;
  /** The field beside the amount; one the keypad may type into carries `data-pad-field`. */
  children: ReactNode;
};

export function CardAmountForm({
  titleId,
  title,
  subtitle,
  amountLabel,
  amountTestId,
  cents,
  setCents,
  onTyped,
  noAmountLabel,
  problem,
  onSubmit,
  onCancel,
  children,
}: Props) {
  const { settings } = useTerminal();
  const [confirmingAmount, setConfirmingAmount] = useState(false);
  const { attach: padPanel, onFocus: onPadFocus, typingInto, press: pressPadKey } = usePadTarget();
  return (
    <>
      <form
        ref={padPanel}
        onFocus={onPadFocus}
        className="new-tab side-halves"
        aria-labelledby={titleId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (needsAmountConfirm(cents, settings.confirmAmountAboveCents)) setConfirmingAmount(true);
          else onSubmit();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          }
        }}
      >
        <header className="side-head">
          <div>
            <h2 id={titleId}>{title}</h2>
            <p className="panel-subtitle">{subtitle}</p>
          </div>
          <button type="button" className="button button-quiet button-small" onClick={onCancel}>
            Cancel
          </button>
        </header>
        <div className="field-row">
          <label className="field">
            <span className="field-label">{amountLabel}</span>
            <MoneyInput
              cents={cents}
              onChange={(value) => {
                setCents(value);
                onTyped();
              }}
              className="input-money-large"
              autoFocus
              testId={amountTestId}
              padField={amountLabel}
            />
          </label>
          {children}
        </div>
        <DigitPad label="Amount keys" variant="money" typingInto={typingInto} onKey={pressPadKey} />
        <ProblemNotice problem={problem} />
        <button type="submit" className="button button-primary button-large">
          {cents === 0 ? noAmountLabel : `Take the card for ${displayMoney(cents)}`}
          <ArrowRightIcon className="button-icon" />
        </button>
      </form>
      {/* Outside the form: Esc in the dialog changes the amount, never leaves the form. */}
      {confirmingAmount && (
        <LargeAmountConfirm
          cents={cents}
          limitCents={settings.confirmAmountAboveCents}
          confirmLabel={`Take the card for ${displayMoney(cents)}`}
          onConfirm={() => {
            setConfirmingAmount(false);
            onSubmit();
          }}
          onCancel={() => setConfirmingAmount(false)}
        />
      )}
    </>
  );
}
