/**
 * API keys for other programs on this computer (an ordering system, a kitchen display, a script):
 * created with a name and only the permissions they need, shown once, listed with when they were last
 * used, and revoked when no longer needed.
 */
import { useRef, useState } from 'react';
import { PERMISSION_MEANINGS, PERMISSIONS, type Permission } from '../../../shared/api/permissions';
import type { ApiKeyInfo, CreatedApiKey } from '../../../shared/ipc/contract';
import { useTerminal } from '../terminal/terminal-context';
import { timeLabel } from '../transactions/present';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Dialog } from '../ui/Dialog';
import { CheckIcon } from '../ui/icons';
import { useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';
import { BusyButton } from '../ui/BusyButton';
import { copyText, useSettingsChange } from './settings-change';

const PERMISSION_NAMES: Record<Permission, string> = {
  'transactions:write': 'Run every transaction',
  'transactions:sale': 'Sales, tabs and captures',
  'transactions:refund': 'Refunds',
  'transactions:void': 'Voids',
  'transactions:read': 'Read transactions',
  'batches:read': 'Read batches',
  'batches:close': 'Close the batch',
};

export function ApiKeysSection() {
  const { bridge } = useTerminal();
  const change = useSettingsChange();
  const [refresh, setRefresh] = useState(0);
  const keys = useLoad(() => bridge.invoke('keys:list'), [bridge, refresh]);
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ReadonlySet<Permission>>(new Set());
  const [problem, setProblem] = useState<string>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();
  const [revoking, setRevoking] = useState<ApiKeyInfo>();
  const [revokeProblem, setRevokeProblem] = useState<string>();
  const [revokeBusy, setRevokeBusy] = useState(false);
  const nameField = useRef<HTMLInputElement>(null);

  const create = async () => {
    if (creating) return;
    if (!name.trim()) {
      setProblem('Give the key a name that says which program uses it.');
      nameField.current?.focus();
      return;
    }
    if (permissions.size === 0) {
      setProblem('Tick at least one permission: only what the program needs.');
      return;
    }
    setCreating(true);
    const result = await change((pin) =>
      bridge.invoke('keys:create', {
        name: name.trim(),
        permissions: PERMISSIONS.filter((permission) => permissions.has(permission)),
        ...(pin && { pin }),
      }),
    );
    setCreating(false);
    if (result.ok) {
      setCreated(result.value);
      setName('');
      setPermissions(new Set());
      setProblem(undefined);
      setRefresh((count) => count + 1);
    } else if (!('cancelled' in result)) {
      setProblem(result.problem);
    }
  };

  const revoke = async (key: ApiKeyInfo) => {
    setRevokeBusy(true);
    const result = await change((pin) => bridge.invoke('keys:revoke', { id: key.id, ...(pin && { pin }) }));
    setRevokeBusy(false);
    if (result.ok) {
      setRevoking(undefined);
      setRefresh((count) => count + 1);
    } else if (!('cancelled' in result)) {
      setRevokeProblem(result.problem);
    }
  };

  return (
    <section className="panel settings-section" aria-labelledby="keys-title">
      <header className="section-head">
        <h2 id="keys-title">API keys</h2>
        <p>
          Other programs on this computer reach the payment engine with a key of their own. Give each program
          its own key with only the permissions it needs, and revoke it when the program goes.
        </p>
      </header>

      <h3 className="subsection-title">Keys in use</h3>
      <ProblemNotice problem={keys.problem} />
      <table className="table keys-table" data-testid="keys-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Permissions</th>
            <th scope="col" className="column-created">
              Created
            </th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.data?.active.map((key) => (
            <tr key={key.id} data-testid={`key-${key.id}`}>
              <th scope="row">
                <span className="cell-main">{key.name}</span>
                <span className="cell-sub mono">{key.id}</span>
                {key.counterScreens && !key.current && <span className="cell-sub">Cashier screens</span>}
              </th>
              <td>
                <PermissionList permissions={key.permissions} />
              </td>
              <td className="nowrap column-created">{timeLabel(key.created)}</td>
              <td className="nowrap">{key.lastUsed ? timeLabel(key.lastUsed) : 'Never'}</td>
              <td className="actions">
                {key.current ? (
                  <span className="pill pill-muted">These screens</span>
                ) : (
                  <button
                    type="button"
                    className="button button-danger-quiet button-small"
                    onClick={() => {
                      setRevokeProblem(undefined);
                      setRevoking(key);
                    }}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {keys.data && keys.data.revokedTotal > 0 && (
        <details className="revoked-keys">
          <summary>
            Revoked keys ({keys.data.revokedTotal}
            {keys.data.revokedTotal > keys.data.revoked.length &&
              `, the latest ${keys.data.revoked.length} shown`}
            )
          </summary>
          <table className="table table-compact">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Revoked</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.revoked.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td className="nowrap">{timeLabel(key.created)}</td>
                  <td className="nowrap">{key.lastUsed ? timeLabel(key.lastUsed) : 'Never'}</td>
                  <td className="nowrap">{key.revoked ? timeLabel(key.revoked) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}

      <form
        className="key-form"
        aria-labelledby="new-key-title"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <h3 id="new-key-title">New key</h3>
        <label className="field">
          <span className="field-label">Name</span>
          <input
            ref={nameField}
            className="input"
            maxLength={100}
            autoComplete="off"
            placeholder="Kitchen display"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setProblem(undefined);
            }}
          />
        </label>
        <fieldset className="permission-choices">
          <legend className="field-label">Permissions</legend>
          {PERMISSIONS.map((permission) => (
            <label key={permission} className="check check-card">
              <input
                type="checkbox"
                checked={permissions.has(permission)}
                onChange={(event) => {
                  setPermissions((previous) => {
                    const next = new Set(previous);
                    if (event.target.checked) next.add(permission);
                    else next.delete(permission);
                    return next;
                  });
                  setProblem(undefined);
                }}
              />
              <span>
                <span className="check-title">{PERMISSION_NAMES[permission]}</span>
                <span className="check-sub">{PERMISSION_MEANINGS[permission]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <ProblemNotice problem={problem} />
        <div className="form-actions">
          <BusyButton type="submit" className="button button-primary" busy={creating}>
            Create key
          </BusyButton>
        </div>
      </form>

      {created && <CreatedKeyDialog created={created} onDone={() => setCreated(undefined)} />}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke the key"
          busy={revokeBusy}
          problem={revokeProblem}
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(undefined)}
        >
          {revoking.counterScreens ? (
            <p>
              These are another counter’s screens: that counter takes no payment and reads nothing from now
              on, until Tender is restarted there, which gives it a new key.
            </p>
          ) : (
            <p>
              The program using this key is refused from now on. This cannot be undone: it would need a new
              key.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

function PermissionList({ permissions }: { permissions: readonly Permission[] }) {
  if (PERMISSIONS.every((permission) => permissions.includes(permission))) {
    return (
      <ul className="chips" aria-label="Permissions">
        <li
          className="chip chip-strong"
          title="Every permission: run and read transactions, read and close batches."
        >
          All permissions
        </li>
      </ul>
    );
  }
  return (
    <ul className="chips" aria-label="Permissions">
      {permissions.map((permission) => (
        <li key={permission} className="chip" title={PERMISSION_MEANINGS[permission]}>
          {PERMISSION_NAMES[permission]}
        </li>
      ))}
    </ul>
  );
}

function CreatedKeyDialog({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const field = useRef<HTMLInputElement>(null);
  return (
    <Dialog
      title={`Key for “${created.info.name}”`}
      onCancel={onDone}
      className="key-dialog"
      testId="created-key"
    >
      <p className="dialog-body">
        Copy the key into the program now. <strong>It is shown only this once</strong>: Tender keeps only a
        hash of it, and a lost key is replaced by a new one.
      </p>
      <div className="copy-field">
        <label className="visually-hidden" htmlFor="created-key-value">
          The new API key
        </label>
        <input
          ref={field}
          id="created-key-value"
          className="input input-code"
          readOnly
          value={created.key}
          onFocus={(event) => event.target.select()}
          data-testid="created-key-value"
        />
        <button
          type="button"
          className="button button-primary"
          data-autofocus
          onClick={async () => {
            const ok = await copyText(created.key);
            setCopied(ok ? 'yes' : 'failed');
            if (!ok) field.current?.select();
          }}
        >
          {copied === 'yes' && <CheckIcon className="button-icon" />}
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copied === 'failed' && (
        <p className="notice" role="alert">
          The key could not be copied from here: it is selected, press Ctrl+C (⌘C on a Mac).
        </p>
      )}
      <p className="muted">
        Permissions: {created.info.permissions.map((permission) => PERMISSION_NAMES[permission]).join(', ')}.
      </p>
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </Dialog>
  );
}
