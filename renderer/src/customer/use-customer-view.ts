/**
 * The customer's screen's view of the sale, as the host keeps it: read at start and again after
 * every reconnect (events sent while the socket was down are lost), and followed by its events. A
 * view older than the one on screen is ignored, so a late event never takes the screen back.
 */
import { useCallback, useEffect, useState } from 'react';
import { BridgeCallError } from '../../../shared/ipc/facade';
import type { CustomerView } from '../../../shared/ipc/customer-contract';
import type { TenderBridge } from '../../../shared/ipc/contract';
import type { SocketTransport } from '../../../shared/ipc/socket-transport';

export type Connection = 'connecting' | 'ready' | 'reconnecting' | { refused: string };

export function useCustomerView(bridge: TenderBridge, link: SocketTransport | undefined) {
  const [view, setView] = useState<CustomerView>();
  const [connection, setConnection] = useState<Connection>(link ? 'connecting' : 'ready');

  const show = useCallback((next: CustomerView) => {
    setView((current) => (current && current.sequence > next.sequence ? current : next));
  }, []);

  const read = useCallback(() => {
    bridge.invoke('customer:view').then(
      (next) => {
        // What the host says now is what is on screen, even from a host restarted meanwhile, whose
        // numbers start again; events after it come after it on the same socket.
        setView(next);
        setConnection('ready');
      },
      (error: unknown) => {
        if (error instanceof BridgeCallError && error.code === 'forbidden')
          setConnection({ refused: error.message });
      },
    );
  }, [bridge]);

  useEffect(() => bridge.on('customer:changed', show), [bridge, show]);

  useEffect(() => {
    read();
    if (!link) return;
    return link.onStateChange((state) => {
      if (state.state === 'ready') read();
      else if (state.state === 'reconnecting') setConnection('reconnecting');
      else if (state.state === 'refused') setConnection({ refused: state.message });
    });
  }, [link, read]);

  return { view, connection, show };
}
