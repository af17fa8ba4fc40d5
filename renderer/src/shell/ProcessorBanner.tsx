/**
 * The line to the card network, on every screen, with the merchant's gateway as the processor: when
 * it cannot be reached (and what can still be taken), what waits to be sent, and each offline sale
 * the network declined once it was sent, until a manager has seen it.
 */
import { useEffect, useState } from 'react';
import type { DeclinedOfflineSale, ProcessorLine } from '../../../shared/ipc/processor-contract';
import { displayMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import { useTerminal } from '../terminal/terminal-context';
import { useCounterOpen } from '../ui/counter-open';
import { counted, timeLabel } from '../transactions/present';
import { AlertIcon } from '../ui/icons';
import { problemText } from '../ui/use-load';

export function ProcessorBanner() {
  const { bridge } = useTerminal();
  const [line, setLine] = useState<ProcessorLine>();
  const open = useCounterOpen();
  // Read at the sign-in, and kept current by the host's events meanwhile.
  useEffect(() => {
    if (!open) return;
    let live = true;
    bridge.invoke('processor:line').then(
      (value) => live && setLine(value),
      () => undefined,
    );
    const off = bridge.on('processor:line-changed', setLine);
    return () => {
      live = false;
      off();
    };
  }, [bridge, open]);
  if (!line) return null;
  const { waiting } = line;
  const queued =
    waiting.count > 0
      ? `${counted(waiting.count, 'sale')}, ${displayMoney(waiting.cents)}, waiting to be sent.`
      : '';
  return (
    <>
      {line.processor === 'upstream' && line.line === 'offline' && (
        <div className="banner banner-bad" role="alert" data-testid="offline-banner">
          <AlertIcon className="banner-icon" />
          <p>
            <strong>Offline: the card network cannot be reached.</strong>{' '}
            {line.offlineEnabled
              ? `Swiped sales up to ${displayMoney(line.offlineMaxAmountCents)} are approved offline and sent when it is back; keyed cards and tabs cannot be taken.`
              : 'Card payments cannot be taken until it is back: take another form of payment.'}{' '}
            {queued}
          </p>
        </div>
      )}
      {line.line === 'online' && waiting.count > 0 && (
        <div className="banner banner-waiting" role="status" data-testid="offline-banner">
          <AlertIcon className="banner-icon" />
          <p>
            <strong>Sending what was taken offline.</strong> {queued}
          </p>
        </div>
      )}
      {line.declined.map((sale) => (
        <DeclinedAlert key={sale.id} sale={sale} onSeen={setLine} />
      ))}
    </>
  );
}

function DeclinedAlert({
  sale,
  onSeen,
}: {
  sale: DeclinedOfflineSale;
  onSeen: (line: ProcessorLine) => void;
}) {
  const { bridge } = useTerminal();
  const approve = useManagerApproval();
  const [problem, setProblem] = useState<string>();
  const acknowledge = async () => {
    const approval = await approve('offline-decline', `sale #${sale.id}`);
    if (approval === null) return;
    try {
      onSeen(
        await bridge.invoke('processor:acknowledge', {
          id: sale.id,
          ...(approval.pin && { pin: approval.pin }),
        }),
      );
    } catch (error) {
      setProblem(problemText(error));
    }
  };
  return (
    <div className="banner banner-bad banner-declined" role="alert" data-testid={`declined-${sale.id}`}>
      <AlertIcon className="banner-icon" />
      <p>
        <strong>
          The card network declined an offline sale: {displayMoney(sale.amountCents)} on the card ending{' '}
          {sale.lastFour}, taken {timeLabel(sale.at)} (sale #{sale.id}).
        </strong>{' '}
        The shop has not been paid for it: contact the customer{sale.email ? ` (${sale.email})` : ''}.{' '}
        {sale.message}
        {problem && <span className="banner-problem"> {problem}</span>}
      </p>
      <button type="button" className="button button-secondary" onClick={() => void acknowledge()}>
        Seen
      </button>
    </div>
  );
}
