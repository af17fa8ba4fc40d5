/**
 * The merchant's gateway settings: the staff and their PINs, tips and tabs, counter sales (the
 * customer's screen, tips at the counter, signatures), receipts and the printer, the card reader and
 * its key, the payment processor, the store server, the address and certificate for integrators, API keys for other
 * programs, and the audit log. Each is read and changed through the bridge, never the REST API.
 */
import { useState } from 'react';
import { ApiKeysSection } from './ApiKeysSection';
import { AuditLogSection } from './AuditLogSection';
import { ConnectionSection } from './ConnectionSection';
import { ProcessorSection } from './ProcessorSection';
import { CounterSalesSection } from './CounterSalesSection';
import { ReaderSection } from './ReaderSection';
import { ReceiptsSection } from './ReceiptsSection';
import { StaffSection } from '../staff/StaffSection';
import { StoreServerSection } from './StoreServerSection';
import { TipsSection } from './TipsSection';

/**
 * In the order a manager at a counter looks for them: the people, tips, receipts, the reader and
 * who approves its payments first; what is set once for other programs and for a store (the connection, the store server, API
 * keys) after; the audit log last. Settings opens on the first.
 */
const SECTIONS = [
  { id: 'staff', label: 'Staff', render: () => <StaffSection /> },
  { id: 'tips', label: 'Tips & tabs', render: () => <TipsSection /> },
  { id: 'counter', label: 'Counter sales', render: () => <CounterSalesSection /> },
  { id: 'receipts', label: 'Receipts & printer', render: () => <ReceiptsSection /> },
  { id: 'reader', label: 'Card reader', render: () => <ReaderSection /> },
  { id: 'processor', label: 'Payment processor', render: () => <ProcessorSection /> },
  { id: 'store-server', label: 'Store server', render: () => <StoreServerSection /> },
  { id: 'connection', label: 'Connection', render: () => <ConnectionSection /> },
  { id: 'keys', label: 'API keys', render: () => <ApiKeysSection /> },
  { id: 'audit', label: 'Audit log', render: () => <AuditLogSection /> },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

export function SettingsScreen() {
  const [section, setSection] = useState<SectionId>(SECTIONS[0].id);
  const shown = SECTIONS.find((entry) => entry.id === section) ?? SECTIONS[0];
  return (
    <div className="screen settings-screen">
      <nav className="settings-nav panel" aria-label="Settings">
        <h1 className="settings-nav-title">Settings</h1>
        <ul>
          {SECTIONS.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="settings-nav-item"
                aria-current={entry.id === section ? 'page' : undefined}
                onClick={() => setSection(entry.id)}
              >
                {entry.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-content">{shown.render()}</div>
    </div>
  );
}
