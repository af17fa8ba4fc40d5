/**
 * Keying a card in, for when the stripe will not read or there is no reader. The number is held only
 * in this form until it is sent; the sale keeps its brand and last four digits.
 */
import { useRef, useState, type FormEvent } from 'react';
import { cardBrand, cscLength } from '../../../shared/cards';
import { displayMoney } from '../../../shared/money';
import { ArrowLeftIcon, ArrowRightIcon } from '../ui/icons';
import {
  checkKeyedCard,
  digitsOf,
  groupCardNumber,
  type KeyedCard,
  type KeyedCardField,
  type KeyedCardInput,
  type KeyedCardProblems,
} from './keyed-card';
import { KeyHint } from '../ui/KeyHint';
import { ProblemNotice } from '../ui/ProblemNotice';

type Props = {
  cents: number;
  notice: string | undefined;
  /** The submit button's words; "Charge $12.50" unless told. */
  submitLabel?: string;
  onBack: () => void;
  onCharge: (card: KeyedCard) => void;
};

const EMPTY: KeyedCardInput = { cardNumber: '', expiry: '', csc: '', zip: '' };
const FIELD_ORDER: KeyedCardField[] = ['cardNumber', 'expiry', 'csc', 'zip'];

export function KeyedCardForm({ cents, notice, submitLabel, onBack, onCharge }: Props) {
  const [input, setInput] = useState<KeyedCardInput>(EMPTY);
  const [problems, setProblems] = useState<KeyedCardProblems>({});
  const fields = useRef<Partial<Record<KeyedCardField, HTMLInputElement | null>>>({});
  const brand = cardBrand(digitsOf(input.cardNumber));

  const set = (field: KeyedCardField, value: string) => {
    setInput((previous) => ({ ...previous, [field]: value }));
    setProblems((previous) => ({ ...previous, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkKeyedCard(input);
    if (!checked.ok) {
      setProblems(checked.problems);
      const first = FIELD_ORDER.find((field) => checked.problems[field]);
      if (first) fields.current[first]?.focus();
      return;
    }
    onCharge(checked.card);
  };

  const describedBy = (field: KeyedCardField, hint?: string) =>
    [problems[field] ? `${field}-problem` : undefined, hint].filter(Boolean).join(' ') || undefined;

  const problem = (field: KeyedCardField) =>
    problems[field] && (
      <span className="field-problem" id={`${field}-problem`}>
        {problems[field]}
      </span>
    );

  return (
    <form className="card-panel keyed-form" onSubmit={submit} noValidate aria-labelledby="keyed-title">
      <h2 className="card-panel-title" id="keyed-title">
        Key in the card
      </h2>
      <ProblemNotice problem={notice} />
      <label className="field field-wide">
        <span className="field-label">Card number</span>
        <input
          ref={(element) => {
            fields.current.cardNumber = element;
          }}
          className="input input-card"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          maxLength={23}
          value={groupCardNumber(digitsOf(input.cardNumber))}
          onChange={(event) => set('cardNumber', digitsOf(event.target.value).slice(0, 19))}
          aria-invalid={problems.cardNumber ? true : undefined}
          aria-describedby={describedBy('cardNumber')}
        />
        {problem('cardNumber')}
      </label>
      <div className="field-row">
        <label className="field">
          <span className="field-label">Expiry (MMYY)</span>
          <input
            ref={(element) => {
              fields.current.expiry = element;
            }}
            className="input"
            inputMode="numeric"
            autoComplete="off"
            placeholder="MMYY"
            maxLength={4}
            value={input.expiry}
            onChange={(event) => set('expiry', digitsOf(event.target.value).slice(0, 4))}
            aria-invalid={problems.expiry ? true : undefined}
            aria-describedby={describedBy('expiry')}
          />
          {problem('expiry')}
        </label>
        <label className="field">
          <span className="field-label">
            Security code <span className="field-optional">optional</span>
          </span>
          <input
            ref={(element) => {
              fields.current.csc = element;
            }}
            className="input input-secret"
            inputMode="numeric"
            autoComplete="off"
            maxLength={cscLength(brand)}
            value={input.csc}
            onChange={(event) => set('csc', digitsOf(event.target.value).slice(0, 4))}
            aria-invalid={problems.csc ? true : undefined}
            aria-describedby={describedBy('csc')}
          />
          {problem('csc')}
        </label>
        <label className="field">
          <span className="field-label">
            Billing zip <span className="field-optional">optional</span>
          </span>
          <input
            ref={(element) => {
              fields.current.zip = element;
            }}
            className="input"
            autoComplete="off"
            maxLength={10}
            value={input.zip}
            onChange={(event) => set('zip', event.target.value)}
            aria-invalid={problems.zip ? true : undefined}
            aria-describedby={describedBy('zip')}
          />
          {problem('zip')}
        </label>
      </div>
      <div className="card-panel-actions">
        <button type="submit" className="button button-primary button-charge">
          {submitLabel ?? `Charge ${displayMoney(cents)}`}
          <ArrowRightIcon className="button-icon" />
        </button>
        <button type="button" className="button button-quiet" onClick={onBack}>
          <ArrowLeftIcon className="button-icon" />
          Swipe instead
          <KeyHint>Esc</KeyHint>
        </button>
      </div>
    </form>
  );
}
