/**
 * What every screen needs from the host: the session (the screens' own API key and the engine's
 * address), a REST client over it, the card reader's status, and whether the bridge is connected.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { TenderClient } from '../../../shared/api/client';
import type { AppSettings, ReaderStatus, TenderBridge, TerminalSession } from '../../../shared/ipc/contract';
import type { BridgeChoice } from '../bridge/choose-bridge';
import { StartupScreen } from '../shell/StartupScreen';
import { engineFetch } from './engine-fetch';

export interface Terminal {
  bridge: TenderBridge;
  session: TerminalSession;
  client: TenderClient;
  reader: ReaderStatus;
  /** The counter's settings, kept current by the host's settings:changed event. */
  settings: AppSettings;
  /** The bridge to the host: always up in the desktop app; a browser's socket may drop and come back. */
  link: 'up' | 'reconnecting';
}

const TerminalContext = createContext<Terminal | undefined>(undefined);

export function useTerminal(): Terminal {
  const terminal = useContext(TerminalContext);
  if (!terminal) throw new Error('useTerminal is used outside TerminalProvider.');
  return terminal;
}

function clientFor(session: TerminalSession): TenderClient {
  return new TenderClient({ baseUrl: session.engineUrl, apiKey: session.apiKey, fetch: engineFetch });
}

type Phase =
  | { phase: 'connecting' }
  | { phase: 'failed'; message: string }
  | { phase: 'refused'; message: string }
  | { phase: 'ready'; session: TerminalSession; client: TenderClient; settings: AppSettings };

export function TerminalProvider({
  choice,
  children,
}: {
  choice: Exclude<BridgeChoice, { kind: 'none' }>;
  children: ReactNode;
}) {
  const { bridge } = choice;
  const link = choice.kind === 'browser' ? choice.link : undefined;
  const [phase, setPhase] = useState<Phase>({ phase: 'connecting' });
  const [reader, setReader] = useState<ReaderStatus>({ state: 'waiting' });
  const [linkState, setLinkState] = useState<Terminal['link']>('up');
  const [attempt, setAttempt] = useState(0);

  // Subscribed before the first status is read, so no change in between is missed.
  useEffect(() => bridge.on('reader:status-changed', setReader), [bridge]);
  useEffect(
    () =>
      bridge.on('settings:changed', (settings) =>
        setPhase((previous) => (previous.phase === 'ready' ? { ...previous, settings } : previous)),
      ),
    [bridge],
  );

  useEffect(() => {
    let current = true;
    Promise.all([
      bridge.invoke('terminal:session'),
      bridge.invoke('reader:status'),
      bridge.invoke('settings:get'),
    ]).then(
      ([session, status, settings]) => {
        if (!current) return;
        setReader(status);
        setPhase({ phase: 'ready', session, client: clientFor(session), settings });
      },
      (error: unknown) => {
        if (!current) return;
        const message = error instanceof Error ? error.message : String(error);
        // A refused token fails the pending requests too; the refusal says more, so it stays on screen.
        setPhase((previous) => (previous.phase === 'refused' ? previous : { phase: 'failed', message }));
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, attempt]);

  useEffect(() => {
    if (!link) return;
    return link.onStateChange((state) => {
      if (state.state === 'refused') setPhase({ phase: 'refused', message: state.message });
      else if (state.state === 'reconnecting') setLinkState('reconnecting');
      else if (state.state === 'ready') {
        // Events sent while the socket was down are lost; the status and settings are read afresh.
        // After a restart of the engine the screens hold a new key: the session is read again too,
        // and the link counts as up once the screens have it, so nothing is sent with the old key.
        bridge.invoke('reader:status').then(setReader, () => undefined);
        Promise.all([bridge.invoke('terminal:session'), bridge.invoke('settings:get')]).then(
          ([session, settings]) => {
            setPhase((previous) => {
              if (previous.phase !== 'ready') return previous;
              const same =
                previous.session.apiKey === session.apiKey &&
                previous.session.engineUrl === session.engineUrl;
              return same
                ? { ...previous, settings }
                : { ...previous, session, client: clientFor(session), settings };
            });
            setLinkState('up');
          },
          () => undefined,
        );
      }
    });
  }, [bridge, link]);

  const retry = useCallback(() => {
    setPhase({ phase: 'connecting' });
    setAttempt((count) => count + 1);
  }, []);

  const terminal = useMemo<Terminal | undefined>(
    () =>
      phase.phase === 'ready'
        ? {
            bridge,
            session: phase.session,
            client: phase.client,
            settings: phase.settings,
            reader,
            link: linkState,
          }
        : undefined,
    [bridge, phase, reader, linkState],
  );

  if (phase.phase === 'connecting') return <StartupScreen kind="connecting" />;
  if (phase.phase === 'failed')
    return <StartupScreen kind="failed" message={phase.message} onRetry={retry} />;
  if (phase.phase === 'refused') return <StartupScreen kind="refused" message={phase.message} />;
  return <TerminalContext.Provider value={terminal}>{children}</TerminalContext.Provider>;
}
