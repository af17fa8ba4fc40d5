/**
 * Manager approval. Voids, refunds, the batch close, charges past a possible duplicate and settings
 * changes need a manager: the one signed in, or a manager who types their PIN here for that one
 * action. The PIN is checked by the host (the bridge), which alone holds the hashes and slows down
 * guessing; it goes along with the request, and the host checks it again before doing anything.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ManagerAction } from '../../../shared/ipc/contract';
import { BridgeCallError } from '../../../shared/ipc/facade';
import { useCounterPerson } from '../staff/counter-session';
import { useTerminal } from '../terminal/terminal-context';
import { Dialog } from '../ui/Dialog';
import { PinField, usePinEntry } from '../ui/PinEntry';

import { BusyButton } from '../ui/BusyButton';
import { ManagerAskingContext } from '../ui/manager-asking';

/** The approval: the PIN to send along (absent when a manager is signed in), or null when cancelled. */
export type Approval = { pin?: string } | null;
/** Asks for a manager's approval of `action`; `detail` names what exactly, such as the amount. */
type Approve = (action: ManagerAction, detail?: string) => Promise<Approval>;

const ManagerContext = createContext<Approve | undefined>(undefined);
export function useManagerApproval(): Approve {
  const approve = useContext(ManagerContext);
  if (!approve) throw new Error('useManagerApproval is used outside ManagerProvider.');
  return approve;
}

const WHAT: Record<ManagerAction, string> = {
  void: 'void this transaction',
  refund: 'refund this card',
  'batch-close': 'close the batch',
  settings: 'change settings',
  duplicate: 'charge this card again',
  'offline-decline': 'mark a declined offline sale as seen',
};

interface Pending {
  action: ManagerAction;
  detail: string | undefined;
  resolve: (approval: Approval) => void;
}

export function ManagerProvider({ children }: { children: ReactNode }) {
  // A manager signed in allows by being there; anyone else asks a manager for their PIN.
  const { signedIn } = useCounterPerson();
  const managerHere = useRef(signedIn?.role === 'manager');
  useEffect(() => {
    managerHere.current = signedIn?.role === 'manager';
  }, [signedIn?.role]);
  const [pending, setPending] = useState<Pending>();

  const approve = useCallback<Approve>((action, detail) => {
    if (managerHere.current) return Promise.resolve({});
    return new Promise<Approval>((resolve) => setPending({ action, detail, resolve }));
  }, []);

  const finish = (approval: Approval) => {
    pending?.resolve(approval);
    setPending(undefined);
  };

  return (
    <ManagerContext.Provider value={approve}>
      <ManagerAskingContext.Provider value={pending !== undefined}>
        {children}
        {pending && <PinDialog action={pending.action} detail={pending.detail} onDone={finish} />}
      </ManagerAskingContext.Provider>
    </ManagerContext.Provider>
  );
}

function PinDialog({
  action,
  detail,
  onDone,
}: {
  action: ManagerAction;
  detail: string | undefined;
  onDone: (approval: Approval) => void;
}) {
  const { bridge } = useTerminal();
  const entry = usePinEntry(
    async (pin) => {
      await bridge.invoke('manager:verify', { pin, action });
      onDone({ pin });
    },
    {
      tooShort: 'The PIN has 4 to 8 digits.',
      problemOf: (error) =>
        error instanceof BridgeCallError && error.code === 'wrong-pin'
          ? error.message
          : `The PIN could not be checked: ${error instanceof Error ? error.message : String(error)}`,
    },
  );

  return (
    <Dialog title="Manager PIN" onCancel={() => onDone(null)} busy={entry.busy} className="pin-dialog">
      <form
        className="pin-form"
        onSubmit={(event) => {
          event.preventDefault();
          void entry.submit();
        }}
        noValidate
      >
        <p className="dialog-body">
          A manager must enter their PIN to {WHAT[action]}
          {detail ? `: ${detail}.` : '.'}
        </p>
        <PinField entry={entry} inputRef={entry.field} problemId="pin-problem" focus="dialog" />
        <div className="dialog-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => onDone(null)}
            disabled={entry.busy}
          >
            Cancel
          </button>
          <BusyButton type="submit" className="button button-primary" busy={entry.busy}>
            Confirm
          </BusyButton>
        </div>
      </form>
    </Dialog>
  );
}
