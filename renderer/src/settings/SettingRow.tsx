/** One setting on a form: its name, what it does, and the control that changes it; and the form's Save. */
import type { ReactNode } from 'react';
import { BusyButton } from '../ui/BusyButton';
import { ProblemNotice } from '../ui/ProblemNotice';

export function SettingRow({
  id,
  label,
  help,
  helpTestId,
  children,
}: {
  /** The control's id, which the name labels. */
  id: string;
  label: string;
  help?: ReactNode;
  helpTestId?: string;
  children: ReactNode;
}) {
  return (
    <div className="setting-row">
      <div>
        <label className="setting-name" htmlFor={id}>
          {label}
        </label>
        {help && (
          <p className="setting-help" data-testid={helpTestId}>
            {help}
          </p>
        )}
      </div>
      {children}
    </div>
  );
}

/** A setting typed as a whole number, digits only, with its unit beside it. */
export function WholeNumberRow({
  id,
  label,
  help,
  digits,
  suffix,
  value,
  onChange,
}: {
  id: string;
  label: string;
  help: string;
  digits: number;
  suffix: string;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <SettingRow id={id} label={label} help={help}>
      <span className="input-affix input-affix-wide">
        <input
          id={id}
          className="input"
          inputMode="numeric"
          maxLength={digits}
          value={value}
          onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, digits))}
        />
        <span className="input-suffix" aria-hidden="true">
          {suffix}
        </span>
      </span>
    </SettingRow>
  );
}

/**
 * A secret setting (a password, an API key): never shown back. An empty field keeps what is kept;
 * typing replaces it, and Remove clears it.
 */
export function SecretRow({
  id,
  label,
  kept,
  keptHelp,
  noneHelp,
  value,
  maxLength,
  code,
  removeLabel,
  removing,
  onChange,
  onRemove,
  helpTestId,
  lineUp,
}: {
  id: string;
  label: string;
  /** Whether a secret is kept. */
  kept: boolean;
  keptHelp: string;
  noneHelp: string;
  value: string;
  maxLength: number;
  /** Typed as code (an API key): monospace, no spelling check. */
  code?: boolean;
  removeLabel: string;
  /** Whether a save or removal is under way, which disables Remove. */
  removing: boolean;
  onChange: (text: string) => void;
  onRemove: () => void;
  helpTestId?: string;
  /** Lines the field up with the fields above and below it (.setting-field). */
  lineUp?: boolean;
}) {
  return (
    <SettingRow id={id} label={label} help={kept ? keptHelp : noneHelp} helpTestId={helpTestId}>
      <div className={`receipt-password${lineUp ? ' setting-field' : ''}`}>
        <input
          id={id}
          className={`input ${code ? 'input-code ' : ''}receipt-setting-input`}
          type="password"
          autoComplete="new-password"
          spellCheck={code ? false : undefined}
          maxLength={maxLength}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
        {kept && (
          <button type="button" className="button button-quiet" disabled={removing} onClick={onRemove}>
            {removeLabel}
          </button>
        )}
      </div>
    </SettingRow>
  );
}

/** The end of a settings form: what went wrong, "Saved" once it was, and Save. */
export function SaveRow({
  problem,
  saved,
  saving,
}: {
  problem: string | undefined;
  saved: boolean;
  saving: boolean;
}) {
  return (
    <>
      <ProblemNotice problem={problem} />
      <div className="form-actions">
        {saved && (
          <span className="muted" role="status">
            Saved
          </span>
        )}
        <BusyButton type="submit" className="button button-primary" busy={saving}>
          Save
        </BusyButton>
      </div>
    </>
  );
}
