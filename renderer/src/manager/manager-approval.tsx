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
import { DigitPad, pressDigit } from '../ui/DigitPad';
import { DigitsInput } from '../ui/DigitsInput';
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
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string>();
  const [checking, setChecking] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  const submit = async () => {
    if (checking) return;
    if (pin.length < 4) {
      setProblem('The PIN has 4 to 8 digits.');
      field.current?.focus();
      return;
    }
    setChecking(true);
    try {
      await bridge.invoke('manager:verify', { pin, action });
      onDone({ pin });
    } catch (error) {
      setChecking(false);
      setPin('');
      setProblem(
        error instanceof BridgeCallError && error.code === 'wrong-pin'
          ? error.message
          : `The PIN could not be checked: ${error instanceof Error ? error.message : String(error)}`,
      );
      field.current?.focus();
    }
  };

  return (
    <Dialog title="Manager PIN" onCancel={() => onDone(null)} busy={checking} className="pin-dialog">
      <form
        className="pin-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <p className="dialog-body">
          A manager must enter their PIN to {WHAT[action]}
          {detail ? `: ${detail}.` : '.'}
        </p>
        <label className="field">
          <span className="field-label">PIN</span>
          <DigitsInput
            ref={field}
            className="input input-pin"
            type="password"
            length={8}
            value={pin}
            onDigits={(digits) => {
              setPin(digits);
              setProblem(undefined);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'pin-problem' : undefined}
            data-autofocus
          />
        </label>
        {problem && (
          <p className="field-problem" id="pin-problem" role="alert">
            {problem}
          </p>
        )}
        <DigitPad
          label="PIN keys"
          variant="pin"
          compact
          onKey={(key) => {
            setPin((previous) => pressDigit(previous, key, 8));
            setProblem(undefined);
          }}
        />
        <div className="dialog-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => onDone(null)}
            disabled={checking}
          >
            Cancel
          </button>
          <BusyButton type="submit" className="button button-primary" busy={checking}>
            Confirm
          </BusyButton>
        </div>
      </form>
    </Dialog>
  );
}
