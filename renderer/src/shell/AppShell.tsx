/** The frame around every screen: brand, the screens' menu, and the card reader's status, always in view. */
import type { ReactNode } from 'react';
import { useTerminal } from '../terminal/terminal-context';
import { TenderMark } from '../ui/icons';
import { ReaderBanner, ReaderStatusBadge } from './ReaderStatus';
import { SimulatorMenu } from './SimulatorMenu';

export function AppShell({ title, children }: { title: string; children: ReactNode }) {
  const { session } = useTerminal();
  return (
    <div className="shell">
      <header className="topbar">
        <div className="topbar-brand">
          <TenderMark className="topbar-mark" />
          <span className="topbar-name">Tender</span>
        </div>
        <nav className="topbar-nav" aria-label="Screens">
          <a className="topbar-tab" href="#sale" aria-current="page">
            {title}
          </a>
        </nav>
        <div className="topbar-status">
          {session.readerSimulator && <SimulatorMenu />}
          <ReaderStatusBadge />
        </div>
      </header>
      <ReaderBanner />
      <main className="shell-main" id="main">
        {children}
      </main>
    </div>
  );
}
