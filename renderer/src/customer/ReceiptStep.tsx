/**
 * The receipt, chosen by the customer: Print, Email or No receipt. Email opens an on-screen keyboard
 * with @ and .com keys; the host checks the address, sends the receipt through the counter's mail
 * settings and keeps the address with the sale.
 */
import { useState } from 'react';
import type { CustomerStep, ReceiptChoice } from '../../../shared/ipc/customer-contract';
import type { CustomerAnswers } from './answers';
import { EmailKeyboard } from './EmailKeyboard';
import { ApprovedNote, Total } from './StatusSteps';
import { CustomerProblem } from './CustomerProblem';

export function ReceiptStep({
  step,
  answers,
}: {
  step: Extract<CustomerStep, { step: 'receipt' }>;
  answers: CustomerAnswers;
}) {
  const [typing, setTyping] = useState(false);
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState(step.problem);
  const [busy, setBusy] = useState<ReceiptChoice>();

  const choose = async (choice: ReceiptChoice, email?: string) => {
    setBusy(choice);
    setProblem(await answers.chooseReceipt(choice, email));
    setBusy(undefined);
  };

  if (typing) {
    return (
      <EmailKeyboard
        address={address}
        onChange={(next) => {
          setAddress(next);
          setProblem(undefined);
          answers.stillHere();
        }}
        problem={problem}
        sending={busy === 'email'}
        onSend={() => void choose('email', address)}
        onBack={() => {
          setTyping(false);
          setProblem(undefined);
        }}
      />
    );
  }

  return (
    <section className="customer-receipt" aria-labelledby="customer-title">
      <ApprovedNote />
      <Total totalCents={step.totalCents} />
      <h1 id="customer-title">Would you like a receipt?</h1>
      <CustomerProblem problem={problem} />
      <div className="receipt-choices" role="group" aria-label="Receipt">
        {step.print && (
          <button
            type="button"
            className="button button-secondary customer-button receipt-choice"
            disabled={busy !== undefined}
            onClick={() => void choose('print')}
          >
            Print
          </button>
        )}
        {step.email && (
          <button
            type="button"
            className="button button-secondary customer-button receipt-choice"
            disabled={busy !== undefined}
            onClick={() => {
              setTyping(true);
              answers.stillHere();
            }}
          >
            Email
          </button>
        )}
        <button
          type="button"
          className="button button-secondary customer-button receipt-choice"
          disabled={busy !== undefined}
          onClick={() => void choose('none')}
        >
          No receipt
        </button>
      </div>
    </section>
  );
}
