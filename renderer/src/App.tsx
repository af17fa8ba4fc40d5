import type { BridgeChoice } from './bridge/choose-bridge';
import { SaleScreen } from './sale/SaleScreen';
import { AppShell } from './shell/AppShell';
import { StartupScreen } from './shell/StartupScreen';
import { TerminalProvider } from './terminal/terminal-context';

export function App({ choice }: { choice: BridgeChoice }) {
  if (choice.kind === 'none') return <StartupScreen kind="no-bridge" />;
  return (
    <TerminalProvider choice={choice}>
      <AppShell title="Sale">
        <SaleScreen />
      </AppShell>
    </TerminalProvider>
  );
}
