/** Full-window states before the counter is usable: connecting, or why it cannot be used. */
import { AlertIcon, Spinner, TenderMark } from '../ui/icons';

type StartupProps =
  | { kind: 'connecting' }
  | { kind: 'failed'; message: string; onRetry: () => void }
  | { kind: 'refused'; message: string }
  | { kind: 'no-bridge' };

export function StartupScreen(props: StartupProps) {
  return (
    <main className="startup">
      <section className="startup-card" aria-labelledby="startup-title">
        <header className="startup-brand">
          <TenderMark className="startup-mark" />
          <span className="startup-name">Tender</span>
        </header>
        {props.kind === 'connecting' ? (
          <div className="startup-body" role="status">
            <Spinner className="spinner startup-spinner" />
            <h1 id="startup-title">Connecting to the payment engine…</h1>
          </div>
        ) : (
          <div className="startup-body" role="alert">
            <AlertIcon className="startup-alert" />
            <h1 id="startup-title">{TITLES[props.kind]}</h1>
            <p>{props.kind === 'no-bridge' ? NO_BRIDGE : props.message}</p>
            {props.kind === 'failed' && (
              <button type="button" className="button button-primary" onClick={props.onRetry} autoFocus>
                Try again
              </button>
            )}
          </div>
        )}
      </section>
    </main>
  );
}

const TITLES = {
  failed: 'Tender could not start the counter',
  refused: 'This page is not one of the counter’s screens',
  'no-bridge': 'Open the counter from Tender',
} as const;

const NO_BRIDGE = (
  <>
    This page is not paired with the counter. On the counter’s computer, run <code>npm start</code>, or open
    the launch page that <code>npm run gateway -- serve --renderer</code> names when it starts (
    <code>screens/open-screens.html</code> in Tender’s data folder).
  </>
);
