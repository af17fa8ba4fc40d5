/**
 * The screen turned to the customer: the merchant's welcome, then for each sale the amount, the tip,
 * the card, the answer, the signature and the receipt, one step at a time as the host says. It asks
 * the host for nothing but its own step and its answers to it: no API key, no engine, no card data.
 */
import { useMemo } from 'react';
import type { CustomerView } from '../../../shared/ipc/customer-contract';
import type { BridgeChoice } from '../bridge/choose-bridge';
import { AlertIcon, Spinner } from '../ui/icons';
import { customerAnswers, type CustomerAnswers } from './answers';
import { ReceiptStep } from './ReceiptStep';
import { SignatureStep } from './SignatureStep';
import {
  ApprovedStep,
  DeclinedStep,
  IdleStep,
  ProcessingStep,
  SeeCashierStep,
  SwipeStep,
  ThanksStep,
} from './StatusSteps';
import { TipStep } from './TipStep';
import { useCustomerView } from './use-customer-view';

export function CustomerApp({ choice }: { choice: BridgeChoice }) {
  if (choice.kind === 'none') return <NotConnected />;
  return <Connected bridge={choice.bridge} link={choice.kind === 'browser' ? choice.link : undefined} />;
}

function Connected({
  bridge,
  link,
}: {
  bridge: Extract<BridgeChoice, { kind: 'desktop' }>['bridge'];
  link: Extract<BridgeChoice, { kind: 'browser' }>['link'] | undefined;
}) {
  const { view, connection, show } = useCustomerView(bridge, link);
  const answers = useMemo(
    () => (view ? customerAnswers(bridge, view.sequence, show) : undefined),
    [bridge, view, show],
  );
  if (typeof connection === 'object') return <NotConnected />;
  if (!view || !answers) {
    return (
      <main className="customer customer-waiting" aria-busy="true">
        <Spinner />
        <p role="status">Connecting…</p>
      </main>
    );
  }
  return (
    <main className="customer" data-step={view.step.step} data-testid="customer-screen">
      <header className="customer-head">
        <span className="customer-merchant">{view.merchantName || 'Welcome'}</span>
      </header>
      {/* Keyed by the step's number: each step starts afresh, with nothing left over from the last. */}
      <div className="customer-body" key={view.sequence}>
        <Step view={view} answers={answers} />
      </div>
      {connection === 'reconnecting' && (
        <p className="customer-reconnecting" role="status">
          Reconnecting to the counter…
        </p>
      )}
    </main>
  );
}

function Step({ view, answers }: { view: CustomerView; answers: CustomerAnswers }) {
  const { step } = view;
  switch (step.step) {
    case 'idle':
      return <IdleStep merchantName={view.merchantName} />;
    case 'tip':
      return <TipStep step={step} answers={answers} />;
    case 'swipe':
      return <SwipeStep step={step} />;
    case 'processing':
      return <ProcessingStep totalCents={step.totalCents} />;
    case 'approved':
      return <ApprovedStep totalCents={step.totalCents} />;
    case 'declined':
      return <DeclinedStep totalCents={step.totalCents} />;
    case 'see-cashier':
      return <SeeCashierStep />;
    case 'signature':
      return <SignatureStep step={step} answers={answers} />;
    case 'receipt':
      return <ReceiptStep step={step} answers={answers} />;
    case 'thanks':
      return <ThanksStep merchantName={view.merchantName} />;
  }
}

/** Not paired, or no longer: only someone at the counter's computer can open it again. */
function NotConnected() {
  return (
    <main className="customer customer-waiting">
      <AlertIcon className="customer-alert" />
      <h1>This screen is not connected</h1>
      <p>Please ask the cashier for help.</p>
      <p className="customer-staff-note">
        Staff: open it again from the cashier screens, under Settings, Counter sales.
      </p>
    </main>
  );
}
