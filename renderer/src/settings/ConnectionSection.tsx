/** For integrators: the engine's loopback address, its certificate and fingerprint, and a first request to try. */
import { useState } from 'react';
import type { ConnectionInfo } from '../../../shared/ipc/contract';
import { useTerminal } from '../terminal/terminal-context';
import { timeLabel } from '../transactions/present';
import { CheckIcon, Spinner } from '../ui/icons';
import { useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';
import { copyText } from './settings-change';

export function ConnectionSection() {
  const { bridge } = useTerminal();
  const connection = useLoad<ConnectionInfo>(() => bridge.invoke('terminal:connection'), [bridge]);
  const info = connection.data;
  return (
    <section className="panel settings-section" aria-labelledby="connection-title">
      <header className="section-head">
        <h2 id="connection-title">Connection</h2>
        <p>
          Other programs on this computer call the payment engine here, over HTTPS on the loopback address
          only, with an API key of their own.
        </p>
      </header>
      <ProblemNotice problem={connection.problem} />
      {!info ? (
        <Spinner className="spinner" />
      ) : (
        <>
          <CopyRow label="Address" value={info.engineUrl} testId="engine-url" />
          <CopyRow
            label="Certificate SHA-256 fingerprint"
            value={info.certificate.sha256}
            testId="certificate-fingerprint"
            // Sixteen pairs a line, so the fingerprint never breaks inside a pair.
            lines={[info.certificate.sha256.slice(0, 48), info.certificate.sha256.slice(48)]}
          />
          <div className="setting-row">
            <div>
              <span className="setting-name">Certificate</span>
              <p className="setting-help">
                Self-signed for 127.0.0.1, valid until {timeLabel(info.certificate.validTo)}; renewed by
                itself before it runs out. Programs trust this file:
              </p>
              <p className="mono path" data-testid="certificate-file">
                {info.certificate.file}
              </p>
            </div>
          </div>
          <div className="setting-block">
            <span className="setting-name">Try it</span>
            <pre className="code-block">{`curl --cacert '${info.certificate.file}' -H "api_key: $KEY" \\
  '${info.engineUrl}/transactions?page_size=5'`}</pre>
            <p className="setting-help">
              The API is described at <span className="mono">{info.engineUrl}/openapi.json</span>.
            </p>
          </div>
        </>
      )}
    </section>
  );
}

function CopyRow({
  label,
  value,
  testId,
  lines,
}: {
  label: string;
  value: string;
  testId: string;
  lines?: string[];
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="setting-row">
      <div className="setting-value">
        <span className="setting-name">{label}</span>
        <p className="mono value" data-testid={testId}>
          {lines
            ? lines.map((line) => (
                <span key={line} className="value-line">
                  {line}
                </span>
              ))
            : value}
        </p>
      </div>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={async () => setCopied(await copyText(value))}
      >
        {copied && <CheckIcon className="button-icon" />}
        {copied ? 'Copied' : 'Copy'}
        <span className="visually-hidden"> the {label.toLowerCase()}</span>
      </button>
    </div>
  );
}
