import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { BridgeChoice } from './bridge/choose-bridge';
import { ManagerProvider } from './manager/manager-approval';
import { SaleScreen } from './sale/SaleScreen';
import { CounterGate, useCounterPerson } from './staff/counter-session';
import { AppShell } from './shell/AppShell';
import { screenOf, SCREENS, type ScreenId } from './shell/routes';
import { ScreenActiveContext } from './ui/screen-active';
import { StartupScreen } from './shell/StartupScreen';
import { TerminalProvider } from './terminal/terminal-context';

// The sale screen is what a counter opens on; the others load the first time they are opened, so the
// page the cashier waits for each morning parses and runs only its own code.
const TabsScreen = lazy(() => import('./tabs/TabsScreen').then((screen) => ({ default: screen.TabsScreen })));
const RefundScreen = lazy(() =>
  import('./refunds/RefundScreen').then((screen) => ({ default: screen.RefundScreen })),
);
const HistoryScreen = lazy(() =>
  import('./history/HistoryScreen').then((screen) => ({ default: screen.HistoryScreen })),
);
const EndOfDayScreen = lazy(() =>
  import('./batch/EndOfDayScreen').then((screen) => ({ default: screen.EndOfDayScreen })),
);
const SettingsScreen = lazy(() =>
  import('./settings/SettingsScreen').then((screen) => ({ default: screen.SettingsScreen })),
);

export function App({ choice }: { choice: BridgeChoice }) {
  if (choice.kind === 'none') return <StartupScreen kind="no-bridge" />;
  return (
    <TerminalProvider choice={choice}>
      <CounterGate>
        <ManagerProvider>
          <Counter />
        </ManagerProvider>
      </CounterGate>
    </TerminalProvider>
  );
}

const RENDER: Record<ScreenId, () => ReactNode> = {
  sale: () => <SaleScreen />,
  tabs: () => <TabsScreen />,
  refunds: () => <RefundScreen />,
  history: () => <HistoryScreen />,
  'end-of-day': () => <EndOfDayScreen />,
  settings: () => <SettingsScreen />,
};

/** Every screen opened so far stays mounted (hidden when out of view), so no work is lost by looking elsewhere. */
function Counter() {
  // Behind the lock no screen is in view: none takes the keyboard or the card reader, or reads. The
  // screens are first shown once someone has signed in; until then the host would refuse them.
  const open = useCounterPerson().signedIn !== null;
  const [everOpen, setEverOpen] = useState(open);
  if (open && !everOpen) setEverOpen(true);
  const [current, setCurrent] = useState<ScreenId>(() => screenOf(window.location.hash));
  const [opened, setOpened] = useState<ReadonlySet<ScreenId>>(() => new Set([current]));

  useEffect(() => {
    const follow = () => {
      const next = screenOf(window.location.hash);
      setCurrent(next);
      setOpened((previous) => (previous.has(next) ? previous : new Set([...previous, next])));
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  return (
    <AppShell current={current}>
      {SCREENS.filter((screen) => everOpen && opened.has(screen.id)).map((screen) => (
        <div key={screen.id} className="screen-slot" hidden={screen.id !== current} data-screen={screen.id}>
          <ScreenActiveContext.Provider value={open && screen.id === current}>
            <Suspense fallback={null}>{RENDER[screen.id]()}</Suspense>
          </ScreenActiveContext.Provider>
        </div>
      ))}
    </AppShell>
  );
}
