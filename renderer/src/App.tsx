/** Where the engine listens unless TENDER_PORT says otherwise; the bridge will report the live one. */
const ENGINE_URL = 'https://127.0.0.1:8443/rest/v1';

export function App() {
  const version = window.tender?.version;

  return (
    <main className="start">
      <section className="start-card" aria-labelledby="start-title">
        <header className="brand">
          <TenderMark />
          <div>
            <h1 id="start-title">Tender</h1>
            <p className="brand-tagline">Counter point of sale</p>
          </div>
        </header>

        <p className="engine">
          Payment engine on <code>{ENGINE_URL}</code>
        </p>

        <p className="next-release">
          The cashier screens for sales, tips, refunds, voids and closing the day arrive with the next
          release. Until then, other programs on this computer can use the payment engine directly with their
          API keys.
        </p>

        <footer className="start-footer">
          {version ? <span>Version {version}</span> : <span>Opened without the desktop app</span>}
        </footer>
      </section>
    </main>
  );
}

function TenderMark() {
  return (
    <svg className="brand-mark" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="44" height="44" rx="12" />
      <path d="M15 17h18M24 17v16" />
      <path d="M17 33h14" className="brand-mark-base" />
    </svg>
  );
}
