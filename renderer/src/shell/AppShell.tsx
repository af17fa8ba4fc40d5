/** The frame around every screen: brand, the screens' menu, and the card reader's status, always in view. */
import { useEffect, useRef, type ReactNode } from 'react';
import { InterruptedPayments } from '../payment/InterruptedPayments';
import { SignedInBadge } from '../staff/SignedInBadge';
import { useTerminal } from '../terminal/terminal-context';
import { TenderMark } from '../ui/icons';
import { ProcessorBanner } from './ProcessorBanner';
import { ReaderBanner, ReaderStatusBadge } from './ReaderStatus';
import { screenHref, SCREENS, type ScreenId } from './routes';
import { SimulatorMenu } from './SimulatorMenu';

export function AppShell({ current, children }: { current: ScreenId; children: ReactNode }) {
  const { session } = useTerminal();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // After a move to another screen, the keyboard starts at that screen, not back at the menu.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
  }, [current]);

  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => (event.preventDefault(), main.current?.focus())}
      >
        Skip to the screen
      </a>
      <header className="topbar">
        <div className="topbar-brand">
          <TenderMark className="topbar-mark" />
          <span className="topbar-name">Tender</span>
        </div>
        <nav className="topbar-nav" aria-label="Screens">
          {SCREENS.map((screen) => (
            <a
              key={screen.id}
              className="topbar-tab"
              href={screenHref(screen.id)}
              aria-current={screen.id === current ? 'page' : undefined}
            >
              {screen.label}
            </a>
          ))}
        </nav>
        <div className="topbar-status">
          {session.readerSimulator && <SimulatorMenu />}
          <ReaderStatusBadge />
          <SignedInBadge />
        </div>
      </header>
      <ReaderBanner />
      <ProcessorBanner />
      <main className="shell-main" id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
      <InterruptedPayments />
    </div>
  );
}
