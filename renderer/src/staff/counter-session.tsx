/**
 * Who works at the counter. The host keeps the session, so every screen of the counter shows the
 * same person; while no one is signed in the screens stay as they were, behind the sign-in keypad,
 * so a lock never loses a charge on its way or an answer (a sale not yet sent starts clean at the
 * next sign-in: see SaleScreen). Behind the lock they ask the host and the engine nothing, which
 * would refuse them, and read again at the next sign-in (ui/counter-open.tsx). The counter locks itself after the idle time the settings give, and
 * on demand.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { CounterSession, StaffMemberShown } from '../../../shared/ipc/staff-contract';
import { StartupScreen } from '../shell/StartupScreen';
import { CounterOpenContext } from '../ui/counter-open';
import { useTerminal } from '../terminal/terminal-context';
import { FirstManagerScreen, SignInScreen } from './SignInScreen';

export interface CounterPerson {
  session: CounterSession;
  /** The person signed in; the screens behind the lock are only reachable with someone signed in. */
  signedIn: StaffMemberShown | null;
  /** Locks the counter now: the next PIN signs in whoever it belongs to. */
  lock(): Promise<void>;
}

const CounterPersonContext = createContext<CounterPerson | undefined>(undefined);

export function useCounterPerson(): CounterPerson {
  const person = useContext(CounterPersonContext);
  if (!person) throw new Error('useCounterPerson is used outside CounterGate.');
  return person;
}

/** What counts as someone at the counter: a touch, a click, a key. */
const ACTIVITY = ['pointerdown', 'keydown', 'wheel'] as const;
/** How often, at most, a screen in use tells the host so; well under the shortest lock (a minute). */
const HOST_TOLD_EVERY_MS = 15_000;

export function CounterGate({ children }: { children: ReactNode }) {
  const { bridge, link } = useTerminal();
  const [session, setSession] = useState<CounterSession>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => bridge.on('staff:session-changed', setSession), [bridge]);
  useEffect(() => {
    if (link !== 'up') return;
    let current = true;
    bridge.invoke('staff:session').then(
      (next) => current && setSession(next),
      (error: unknown) => current && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
  }, [bridge, link]);

  const lock = useCallback(async () => {
    setSession(await bridge.invoke('staff:lock'));
  }, [bridge]);

  const signedInId = session?.signedIn?.id;
  const minutes = session?.lockAfterMinutes ?? 0;
  useEffect(() => {
    if (signedInId === undefined || minutes === 0) return;
    let timer: ReturnType<typeof setTimeout>;
    let toldHost = 0;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void bridge.invoke('staff:lock').catch(() => undefined), minutes * 60_000);
      // The host keeps its own idle lock, which only requests reach: it is told of use now and then.
      if (Date.now() - toldHost < HOST_TOLD_EVERY_MS) return;
      toldHost = Date.now();
      void bridge.invoke('staff:active').catch(() => undefined);
    };
    restart();
    for (const name of ACTIVITY) window.addEventListener(name, restart, { capture: true, passive: true });
    return () => {
      clearTimeout(timer);
      for (const name of ACTIVITY) window.removeEventListener(name, restart, { capture: true });
    };
  }, [bridge, signedInId, minutes]);

  if (!session) {
    return problem ? (
      <StartupScreen kind="failed" message={problem} onRetry={() => window.location.reload()} />
    ) : (
      <StartupScreen kind="connecting" />
    );
  }
  const locked = session.signedIn === null;
  return (
    <CounterPersonContext.Provider value={{ session, signedIn: session.signedIn, lock }}>
      <CounterOpenContext.Provider value={!locked}>
        <div className="counter-behind-lock" inert={locked} aria-hidden={locked || undefined}>
          {children}
        </div>
      </CounterOpenContext.Provider>
      {session.needsFirstManager ? (
        <FirstManagerScreen onDone={setSession} />
      ) : (
        locked && <SignInScreen onDone={setSession} />
      )}
    </CounterPersonContext.Provider>
  );
}
